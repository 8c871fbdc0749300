// Generated from src/hosting/nginx.ts by `npm run routes`; edit that file, not this one.
// nginx's JavaScript module runs it (see renderNjs there for what each function does).

var FACTS = {"dataTypes":["catalogues","imaging","ifs","spectra"],"listPath":"/api/schema/","listName":"Schema List","detailName":"Schema Instance","listLinkBefore":"/api/schema/?data_type=","listLinkAfter":"&format=api"};
var ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text) {
    return text.replace(/[&<>"']/g, function (c) { return ESCAPES[c]; });
}

function formDecode(text) {
    var spaced = text.replace(/\+/g, ' ');
    try {
        return decodeURIComponent(spaced);
    } catch (e) {
        return spaced;
    }
}

function nameOf(part) {
    var eq = part.indexOf('=');
    return formDecode(eq < 0 ? part : part.slice(0, eq));
}

function lastQueryValue(query, name) {
    var value = null;
    query.split('&').forEach(function (part) {
        var eq = part.indexOf('=');
        if (part !== '' && nameOf(part) === name) value = eq < 0 ? '' : formDecode(part.slice(eq + 1));
    });
    return value;
}

function withFormat(target, format) {
    var q = target.indexOf('?');
    var kept = (q < 0 ? '' : target.slice(q + 1)).split('&').filter(function (part) {
        return part !== '' && nameOf(part) !== 'format';
    });
    kept.push('format=' + format);
    return (q < 0 ? target : target.slice(0, q)) + '?' + kept.join('&');
}

var HEX = '0123456789ABCDEF';

// Bytes a URL parser percent-encodes in a path and in a query (of an http: URL).
function inPathSet(b) {
    return b < 0x21 || b > 0x7e || b === 0x22 || b === 0x23 || b === 0x3c || b === 0x3e || b === 0x3f || b === 0x60 || b === 0x7b || b === 0x7d;
}

function inQuerySet(b) {
    return b < 0x21 || b > 0x7e || b === 0x22 || b === 0x23 || b === 0x27 || b === 0x3c || b === 0x3e;
}

function encodeBytes(bytes, from, to, encoded) {
    var out = '';
    for (var i = from; i < to; i++) {
        var b = bytes[i];
        out += encoded(b) ? '%' + HEX[b >> 4] + HEX[b & 15] : String.fromCharCode(b);
    }
    return out;
}

function isDot(segment) {
    return segment === '.' || segment.toLowerCase() === '%2e';
}

function isDotDot(segment) {
    var s = segment.toLowerCase();
    return s === '..' || s === '.%2e' || s === '%2e.' || s === '%2e%2e';
}

// The path as a URL parser leaves it: backslashes as slashes, dot segments resolved.
function resolvePath(path) {
    var segments = path.replace(/\\/g, '/').split('/').slice(1);
    var out = [];
    segments.forEach(function (segment, i) {
        var last = i === segments.length - 1;
        if (isDotDot(segment)) {
            out.pop();
            if (last) out.push('');
        } else if (isDot(segment)) {
            if (last) out.push('');
        } else {
            out.push(segment);
        }
    });
    return '/' + out.join('/');
}

// The request line as sent: its method, and its target as the other hosts see it.
function requestOf(r) {
    var line = r.rawVariables.request;
    var first = line.indexOf(32);
    var lastSpace = line.lastIndexOf(32);
    var end = lastSpace > first ? lastSpace : line.length;
    var method = line.slice(0, first).toString();
    var hash = line.indexOf(35, first + 1);
    if (hash >= 0 && hash < end) end = hash;
    var question = line.indexOf(63, first + 1);
    var pathEnd = question >= 0 && question < end ? question : end;
    var path = resolvePath(encodeBytes(line, first + 1, pathEnd, inPathSet));
    var query = pathEnd < end ? encodeBytes(line, pathEnd + 1, end, inQuerySet) : '';
    return { method: method, path: path, query: query };
}

function format(r) {
    var value = lastQueryValue(requestOf(r).query, 'format');
    if (value === null || value === '') return 'none';
    return value === 'api' || value === 'json' ? value : 'unknown';
}

function dataType(r) {
    var value = lastQueryValue(requestOf(r).query, 'data_type');
    if (value === null || value === '') return 'none';
    return FACTS.dataTypes.indexOf(value) >= 0 ? value : 'invalid';
}

function method(r) {
    return requestOf(r).method;
}

function request(r) {
    var req = requestOf(r);
    var target = req.path + (req.query === '' ? '' : '?' + req.query);
    var list = req.path === FACTS.listPath || req.path === FACTS.listPath.slice(0, -1);
    var shown = req.method === 'HEAD' ? 'GET' : req.method;
    var asked = lastQueryValue(req.query, 'data_type');
    var type = FACTS.dataTypes.indexOf(asked) >= 0 ? asked : FACTS.dataTypes[0];
    var listName = escapeHtml(FACTS.listName);
    var name = list ? FACTS.listName : FACTS.detailName;
    var crumbs = list
        ? listName
        : '<a href="' + escapeHtml(FACTS.listLinkBefore + type + FACTS.listLinkAfter) + '">' + listName + '</a> / ' + escapeHtml(name);
    return '<nav class="crumbs" aria-label="Breadcrumbs">' + crumbs + '</nav>\n<h1>' + escapeHtml(name) + '</h1>\n' +
        '<div class="formats">Formats:<a href="' + escapeHtml(withFormat(target, 'json')) + '">json</a><a href="' +
        escapeHtml(withFormat(target, 'api')) + '">api</a></div>\n' +
        '<pre class="request"><b>' + escapeHtml(shown) + '</b> ' + escapeHtml(target) + '</pre>';
}

export default { format: format, dataType: dataType, method: method, request: request };

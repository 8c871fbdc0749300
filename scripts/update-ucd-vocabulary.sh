#!/usr/bin/env bash
# Refreshes schemas/vocabularies/ucd1p-words.txt, the IVOA UCD1+ word list behind the UCD
# warnings of src/ucd.ts, rewriting it in the normalised format described in its header.
#
#   scripts/update-ucd-vocabulary.sh
#       takes the list Debian ships in python3-gavo (UCD_DEBIAN_PACKAGE=python3-astropy for
#       astropy's copy): downloads the .deb into a temporary directory with apt-get download
#       and unpacks it there; nothing is installed.
#   scripts/update-ucd-vocabulary.sh ucd-list.txt [ucd-list-deprecated.txt]
#       normalises word lists you downloaded yourself, e.g. the IVOA's ucd-list.txt and
#       ucd-list-deprecated.txt of a new UCD1+ Endorsed Note. Lines may be "X|word|text" or
#       padded "X | word | text"; "#" lines are comments.
#
# Deprecated words come from the second argument, else are kept from the current vendored file.
# Provenance is recorded in the header: set UCD_SOURCE / UCD_DEPRECATED_SOURCE to say where
# hand-downloaded files came from. The script refuses to replace the vendored list by an older
# version (or an Endorsed Note by a draft of the same version) unless FORCE=1.
# UCD_VOCABULARY_OUT writes elsewhere (default: schemas/vocabularies/ucd1p-words.txt).
# Needs node and the project's dev dependencies (npm ci): it compiles src/ into lib/.
set -euo pipefail

words="${1:-}"
deprecated="${2:-}"
[ -z "$words" ] || words="$(realpath "$words")"
[ -z "$deprecated" ] || deprecated="$(realpath "$deprecated")"
cd "$(dirname "$0")/.."
out="${UCD_VOCABULARY_OUT:-schemas/vocabularies/ucd1p-words.txt}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if [ -z "$words" ]; then
  package="${UCD_DEBIAN_PACKAGE:-python3-gavo}"
  case "$package" in
    python3-gavo) inside=usr/lib/python3/dist-packages/gavo/resources/data/ucd-words.txt ;;
    python3-astropy) inside=usr/lib/python3/dist-packages/astropy/io/votable/data/ucd1p-words.txt ;;
    *) echo "UCD_DEBIAN_PACKAGE must be python3-gavo or python3-astropy" >&2; exit 2 ;;
  esac
  (cd "$tmp" && apt-get download "$package" >/dev/null 2>&1) \
    || { echo "apt-get download $package failed (run apt-get update first?)" >&2; exit 1; }
  deb="$(ls "$tmp"/*.deb)"
  dpkg-deb -x "$deb" "$tmp/x"
  words="$tmp/x/$inside"
  : "${UCD_SOURCE:=Debian package $package $(dpkg-deb -f "$deb" Version), /$inside}"
fi
: "${UCD_SOURCE:=$(basename "$words"), normalised by scripts/update-ucd-vocabulary.sh}"
if [ -n "$deprecated" ]; then
  : "${UCD_DEPRECATED_SOURCE:=$(basename "$deprecated")}"
elif [ -f "$out" ]; then
  grep '^D|' "$out" > "$tmp/deprecated.txt" || true
  deprecated="$tmp/deprecated.txt"
  : "${UCD_DEPRECATED_SOURCE:=$(sed -n 's/^# Deprecated words: //p' "$out" | head -n 1)}"
fi

# tsc emits lib/ even when another file has a type error; only a missing or stale lib/ucd.js stops us.
npm run compile --silent >/dev/null 2>&1 || echo "note: tsc reported errors elsewhere; using the emitted lib/ucd.js" >&2
[ lib/ucd.js -nt src/ucd.ts ] || { echo "lib/ucd.js was not compiled from src/ucd.ts" >&2; exit 1; }

WORDS="$words" DEPRECATED="$deprecated" OUT="$out" NEW="$tmp/new.txt" \
  UCD_SOURCE="$UCD_SOURCE" UCD_DEPRECATED_SOURCE="${UCD_DEPRECATED_SOURCE:-}" FORCE="${FORCE:-}" \
  node --input-type=module -e '
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { normaliseUcdList, parseUcdList } from "./lib/ucd.js";
const env = process.env;
const text = normaliseUcdList(readFileSync(env.WORDS, "utf8"), {
  deprecated: env.DEPRECATED ? readFileSync(env.DEPRECATED, "utf8") : undefined,
  source: env.UCD_SOURCE,
  deprecatedSource: env.UCD_DEPRECATED_SOURCE || undefined,
});
const rank = (v) => [v.version.replace(/^v/, "").split(".").map(Number), v.tag.startsWith("EN-") ? 1 : 0];
const older = (a, b) => {
  const [[na, ea], [nb, eb]] = [rank(a), rank(b)];
  for (let i = 0; i < Math.max(na.length, nb.length); i++) if ((na[i] ?? 0) !== (nb[i] ?? 0)) return (na[i] ?? 0) < (nb[i] ?? 0);
  return ea < eb;
};
const next = parseUcdList(text);
if (existsSync(env.OUT) && !env.FORCE) {
  const now = parseUcdList(readFileSync(env.OUT, "utf8"));
  if (older(next, now)) {
    console.error(`${env.WORDS} holds ${next.tag || "an unversioned list"}, older than the vendored ${now.tag}; nothing written (FORCE=1 to write it anyway)`);
    process.exit(1);
  }
}
writeFileSync(env.NEW, text);
console.log(`${env.OUT}: ${next.tag || "unversioned"}, ${next.words.size} words, ${next.deprecated.size} deprecated`);
'
mv "$tmp/new.txt" "$out"

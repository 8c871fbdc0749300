// VOTable FIELD lists as `archive-schema import` reads them: VOTable 1.3 with the default
// namespace, 1.1 with none, a `vot:` prefix, and the documents we refuse (malformed, DTDs).

import { describe, expect, test } from 'vitest';
import { VotableError, readVotableTables, votableHead } from '../src/readers/votable.ts';

const V13 = `<?xml version="1.0" encoding="UTF-8"?>
<VOTABLE version="1.3" xmlns="http://www.ivoa.net/xml/VOTable/v1.3"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.ivoa.net/xml/VOTable/v1.3 http://www.ivoa.net/xml/VOTable/v1.3">
  <DESCRIPTION>Two releases of the archive</DESCRIPTION>
  <COOSYS ID="ICRS" system="ICRS" epoch="J2000"/>
  <!-- A comment with <FIELD name="not_a_field"/> inside -->
  <RESOURCE type="results" name="photometry">
    <INFO name="QUERY_STATUS" value="OK"/>
    <TABLE name="dr1.sources" ID="sources">
      <DESCRIPTION>Sources detected in DR1</DESCRIPTION>
      <PARAM name="release" datatype="char" arraysize="*" value="DR1" ucd="meta.dataset"/>
      <FIELD name="source_id" ID="col_id" datatype="long" ucd="meta.id;meta.main">
        <DESCRIPTION>
          Unique source identifier,
          stable	within the release
        </DESCRIPTION>
      </FIELD>
      <FIELD datatype="double" name="ra" unit="deg" ucd="pos.eq.ra;meta.main" ref="ICRS">
        <DESCRIPTION>Right ascension &amp; its epoch (J2000), &lt;ICRS&gt;</DESCRIPTION>
        <VALUES><MIN value="0"/><MAX value="360" inclusive="no"/></VALUES>
      </FIELD>
      <PARAM name="zero_point" datatype="float" unit="mag" value="25.0"/>
      <FIELD name="dec" datatype="double" unit="deg" ucd="pos.eq.dec;meta.main" ref="ICRS"/>
      <GROUP name="photometry">
        <DESCRIPTION>Grouped columns</DESCRIPTION>
        <FIELDref ref="col_id"/>
        <PARAM name="band" datatype="char" arraysize="1" value="r"/>
      </GROUP>
      <FIELD name="mag_r" datatype="float" unit="mag" ucd="phot.mag;em.opt.R"
             utype="ivoa:Characterisation.axis.photometry">
        <DESCRIPTION><![CDATA[Petrosian <r> magnitude]]> in the AB system</DESCRIPTION>
        <LINK href="https://example.org/doc/mag_r"/>
      </FIELD>
      <FIELD name="flux" datatype="float" unit="erg/s/cm2/Angstrom" ucd="phot.flux.density">
        <DESCRIPTION>Flux density per &#x212B; at 6231 &#197;&#32;(&quot;r&quot;)</DESCRIPTION>
      </FIELD>
      <FIELD name="name" datatype="char" arraysize="16*" unit="" ucd=" meta.id "/>
      <DATA>
        <TABLEDATA>
          <TR><TD>1</TD><TD>10.5</TD><TD>-3.25</TD><TD>17.2</TD><TD>1e-17</TD><TD>J0042+4116 &lt;a&gt;</TD></TR>
          <TR><TD>2</TD><TD>10.6</TD><TD>-3.50</TD><TD/><TD/><TD>M 31</TD></TR>
        </TABLEDATA>
      </DATA>
    </TABLE>
    <RESOURCE name="calibration">
      <TABLE name="dr1.bands">
        <FIELD name="band" datatype="char" arraysize="1" ucd="instr.bandpass"/>
        <FIELD name="wavelength" datatype="double" unit="nm" ucd="em.wl.effective"/>
      </TABLE>
    </RESOURCE>
    <TABLE name="dr1.empty"/>
  </RESOURCE>
  <RESOURCE name="spectra">
    <TABLE name="dr2.spectra">
      <FIELD name="spectrum_id" datatype="int" ucd="meta.id;meta.main"/>
      <FIELD name="flux" datatype="float" arraysize="*" unit="Jy"/>
      <DATA><BINARY2><STREAM encoding="base64">AAAAAQAAAAJAAAAA</STREAM></BINARY2></DATA>
    </TABLE>
  </RESOURCE>
  <INFO name="provider" value="archive-schema tests"/>
</VOTABLE>
`;

// VOTable 1.1 as older services wrote it: no namespace, UCD1 names, ID-only tables.
const V11 = `<?xml version="1.0"?>
<VOTABLE version="1.1">
<RESOURCE>
<TABLE ID="T1">
<FIELD name="RAJ2000" ID="RA" ucd="POS_EQ_RA_MAIN" datatype="char" arraysize="12" unit="&quot;h:m:s&quot;"/>
<FIELD ID="DEJ2000" ucd="POS_EQ_DEC_MAIN" datatype="char" arraysize="12" unit="&quot;d:m:s&quot;"/>
<FIELD name="Vmag" ucd="PHOT_JHN_V" datatype="float" width="5" precision="2" unit="mag"><DESCRIPTION>V magnitude</DESCRIPTION></FIELD>
<DATA><TABLEDATA><TR><TD>00 42 44.3</TD><TD>+41 16 09</TD><TD>3.44</TD></TR></TABLEDATA></DATA>
</TABLE>
</RESOURCE>
</VOTABLE>`;

const PREFIXED = `<?xml version="1.0" encoding="UTF-8"?>
<vot:VOTABLE xmlns:vot="http://www.ivoa.net/xml/VOTable/v1.3" version="1.4">
  <vot:RESOURCE type="results">
    <vot:TABLE name="ivoa.obscore">
      <vot:FIELD name="obs_id" datatype="char" arraysize="*" ucd="meta.id" utype="obscore:DataID.observationID">
        <vot:DESCRIPTION>Observation identifier</vot:DESCRIPTION>
      </vot:FIELD>
      <vot:PARAM name="maxrec" datatype="int" value="1000"/>
      <vot:FIELD name="s_ra" datatype="double" unit="deg" ucd="pos.eq.ra"/>
      <vot:DATA><vot:TABLEDATA><vot:TR><vot:TD>x</vot:TD><vot:TD>1</vot:TD></vot:TR></vot:TABLEDATA></vot:DATA>
    </vot:TABLE>
  </vot:RESOURCE>
</vot:VOTABLE>`;

function votableError(xml: string): string {
  try {
    readVotableTables(xml);
  } catch (error) {
    expect(error).toBeInstanceOf(VotableError);
    return (error as Error).message;
  }
  throw new Error('expected a VotableError');
}

describe('readVotableTables', () => {
  test('reads every TABLE of a VOTable 1.3 in document order, FIELDs only, with their attributes', () => {
    expect(readVotableTables(V13)).toEqual([
      {
        name: 'dr1.sources',
        ID: 'sources',
        fields: [
          {
            name: 'source_id',
            ID: 'col_id',
            datatype: 'long',
            ucd: 'meta.id;meta.main',
            description: 'Unique source identifier, stable within the release',
          },
          {
            name: 'ra',
            datatype: 'double',
            unit: 'deg',
            ucd: 'pos.eq.ra;meta.main',
            description: 'Right ascension & its epoch (J2000), <ICRS>',
          },
          { name: 'dec', datatype: 'double', unit: 'deg', ucd: 'pos.eq.dec;meta.main' },
          {
            name: 'mag_r',
            datatype: 'float',
            unit: 'mag',
            ucd: 'phot.mag;em.opt.R',
            utype: 'ivoa:Characterisation.axis.photometry',
            description: 'Petrosian <r> magnitude in the AB system',
          },
          {
            name: 'flux',
            datatype: 'float',
            unit: 'erg/s/cm2/Angstrom',
            ucd: 'phot.flux.density',
            description: 'Flux density per \u212B at 6231 \u00C5 ("r")',
          },
          { name: 'name', datatype: 'char', arraysize: '16*', ucd: 'meta.id' },
        ],
      },
      {
        name: 'dr1.bands',
        fields: [
          { name: 'band', datatype: 'char', arraysize: '1', ucd: 'instr.bandpass' },
          { name: 'wavelength', datatype: 'double', unit: 'nm', ucd: 'em.wl.effective' },
        ],
      },
      { name: 'dr1.empty', fields: [] },
      {
        name: 'dr2.spectra',
        fields: [
          { name: 'spectrum_id', datatype: 'int', ucd: 'meta.id;meta.main' },
          { name: 'flux', datatype: 'float', arraysize: '*', unit: 'Jy' },
        ],
      },
    ]);
  });

  test('reads a VOTable 1.1 without a namespace, naming a FIELD by its ID when it has no name', () => {
    expect(readVotableTables(V11)).toEqual([
      {
        ID: 'T1',
        fields: [
          { name: 'RAJ2000', ID: 'RA', ucd: 'POS_EQ_RA_MAIN', datatype: 'char', arraysize: '12', unit: '"h:m:s"' },
          { name: 'DEJ2000', ID: 'DEJ2000', ucd: 'POS_EQ_DEC_MAIN', datatype: 'char', arraysize: '12', unit: '"d:m:s"' },
          { name: 'Vmag', ucd: 'PHOT_JHN_V', datatype: 'float', unit: 'mag', description: 'V magnitude' },
        ],
      },
    ]);
  });

  test('reads a document whose elements carry a namespace prefix', () => {
    expect(readVotableTables(PREFIXED)).toEqual([
      {
        name: 'ivoa.obscore',
        fields: [
          {
            name: 'obs_id',
            datatype: 'char',
            arraysize: '*',
            ucd: 'meta.id',
            utype: 'obscore:DataID.observationID',
            description: 'Observation identifier',
          },
          { name: 's_ra', datatype: 'double', unit: 'deg', ucd: 'pos.eq.ra' },
        ],
      },
    ]);
  });

  test('reads a byte-order mark and a document with no tables', () => {
    expect(readVotableTables('\uFEFF<?xml version="1.0"?><VOTABLE version="1.3"><RESOURCE/></VOTABLE>')).toEqual([]);
  });

  test('reads the FIELDs of a table with 20 000 rows of TABLEDATA', () => {
    const rows = Array.from({ length: 20000 }, (_, i) => `<TR><TD>${i}</TD><TD>&lt;${i}&gt;</TD></TR>`).join('\n');
    const xml = `<VOTABLE><RESOURCE><TABLE name="big"><FIELD name="i" datatype="int"/><FIELD name="s" datatype="char" arraysize="*"/><DATA><TABLEDATA>${rows}</TABLEDATA></DATA></TABLE></RESOURCE></VOTABLE>`;
    expect(readVotableTables(xml)).toEqual([
      {
        name: 'big',
        fields: [
          { name: 'i', datatype: 'int' },
          { name: 's', datatype: 'char', arraysize: '*' },
        ],
      },
    ]);
  });

  test.each([
    [
      'malformed XML',
      '<VOTABLE version="1.3">\n  <RESOURCE>\n    <TABLE name="t">\n  </RESOURCE>\n</VOTABLE>',
      "Not well-formed XML at line 4, column 3: Expected closing tag 'TABLE' (opened in line 3, col 5) instead of closing tag 'RESOURCE'.",
    ],
    ['an empty document', '', 'Not well-formed XML at line 1, column 1: Start tag expected.'],
    ['a CSV file', 'ra,dec\n1,2\n', "Not well-formed XML at line 1, column 1: char 'r' is not expected."],
    [
      'a repeated attribute',
      '<VOTABLE><RESOURCE><TABLE><FIELD name="a" name="b"/></TABLE></RESOURCE></VOTABLE>',
      "Not well-formed XML at line 1, column 43: Attribute 'name' is repeated.",
    ],
    [
      'a DOCTYPE with entities (billion laughs)',
      `<?xml version="1.0"?>
<!DOCTYPE VOTABLE [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<VOTABLE><RESOURCE><TABLE><FIELD name="x"><DESCRIPTION>&lol3;</DESCRIPTION></FIELD></TABLE></RESOURCE></VOTABLE>`,
      'The document has a DOCTYPE declaration at line 2, which is not accepted: entity declarations can make a small file expand without limit, and VOTable needs none (remove it)',
    ],
    [
      'a VOTable 1.0 DOCTYPE',
      '<?xml version="1.0"?>\n<!DOCTYPE VOTABLE SYSTEM "http://us-vo.org/xml/VOTable.dtd">\n<VOTABLE version="1.0"/>',
      'The document has a DOCTYPE declaration at line 2, which is not accepted: entity declarations can make a small file expand without limit, and VOTable needs none (remove it)',
    ],
    [
      'an HTML entity',
      '<VOTABLE><RESOURCE><TABLE><FIELD name="x"><DESCRIPTION>a&nbsp;b</DESCRIPTION></FIELD></TABLE></RESOURCE></VOTABLE>',
      'Not well-formed XML: the entity &nbsp; is not defined (XML has only &amp; &lt; &gt; &quot; &apos;)',
    ],
    ['another kind of document', '<?xml version="1.0"?><html><body/></html>', 'Not a VOTable: the root element is <html>, not <VOTABLE>'],
    ['two root elements', '<VOTABLE/><VOTABLE/>', 'Not well-formed XML: the document has more than one root element'],
    ['only a comment', '<!-- nothing -->', 'Not well-formed XML at line 1, column 1: Start tag expected.'],
    // These two crashed `import columns` with the XML parser's own error and a stack trace.
    [
      'elements nested 150 deep',
      `<VOTABLE>${'<RESOURCE>'.repeat(150)}${'</RESOURCE>'.repeat(150)}</VOTABLE>`,
      'Elements are nested more than 100 deep at line 1, column 1000 (<RESOURCE>), which no VOTable needs (RESOURCE in RESOURCE goes a few levels at most); is this the right file?',
    ],
    [
      'an element named __proto__',
      '<VOTABLE><RESOURCE><TABLE><__proto__/><FIELD name="a"/></TABLE></RESOURCE></VOTABLE>',
      'An element or attribute is named "__proto__", which VOTable never uses and which could change how the file is read; remove it',
    ],
    [
      'an attribute named __proto__',
      '<VOTABLE><RESOURCE><TABLE><FIELD name="a" __proto__="x"/></TABLE></RESOURCE></VOTABLE>',
      'An element or attribute is named "__proto__", which VOTable never uses and which could change how the file is read; remove it',
    ],
    [
      'a FIELD with neither name nor ID',
      '<VOTABLE><RESOURCE><TABLE name="t"><FIELD name="a"/><FIELD datatype="int"/></TABLE></RESOURCE></VOTABLE>',
      'FIELD 2 of TABLE t has no name attribute',
    ],
  ])('refuses %s', (_, xml, message) => {
    expect(votableError(xml)).toBe(message);
  });
});

/** A text cut into pieces of `size` characters, as a file read a chunk at a time arrives. */
function* pieces(text: string, size: number): Generator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

/** Each DATA element replaced by its line breaks: what votableHead must give for any chunking. */
function withoutData(xml: string): string {
  return xml.replace(/<((?:vot:)?)DATA\b(?:[^>]*\/>|[\s\S]*?<\/\1DATA>)/g, (data) => '\n'.repeat(data.split('\n').length - 1));
}

describe('votableHead: a VOTable read as it streams, its DATA left out', () => {
  const TRICKY = `<VOTABLE><RESOURCE><TABLE name="t">
<!-- <DATA> in a comment is not data -->
<FIELD name="a"><DESCRIPTION><![CDATA[<DATA> in CDATA is text]]></DESCRIPTION></FIELD>
<DATA><TABLEDATA>
<TR><TD><![CDATA[</DATA> inside a cell]]></TD></TR>
<!-- </DATA> in a comment inside the data -->
</TABLEDATA></DATA   >
<FIELD name="b"/>
<DATA/>
<DATABASE_NOTE>not a DATA element</DATABASE_NOTE>
</TABLE></RESOURCE></VOTABLE>`;
  const documents: [string, string][] = [
    ['VOTable 1.3', V13],
    ['VOTable 1.1', V11],
    ['a vot: prefix', PREFIXED],
  ];

  test.each(documents.flatMap(([name, xml]) => [1, 2, 3, 7, 64, 1 << 20].map((size) => [name, size, xml] as const)))(
    '%s in chunks of %i characters: the same FIELDs, and the lines where they were',
    (_, size, xml) => {
      const head = votableHead(pieces(xml, size));
      expect(head).toBe(withoutData(xml));
      expect(readVotableTables(head)).toEqual(readVotableTables(xml));
    },
  );

  test.each([1, 2, 5, 13, 1000])('markers inside comments and CDATA are not taken for DATA, in chunks of %i', (size) => {
    const head = votableHead(pieces(TRICKY, size));
    expect(head).not.toContain('inside a cell');
    expect(head).toContain('<![CDATA[<DATA> in CDATA is text]]>');
    expect(head).toContain('<DATABASE_NOTE>');
    expect(head.split('\n').length).toBe(TRICKY.split('\n').length);
    expect(readVotableTables(head)[0]?.fields.map((f) => f.name)).toEqual(['a', 'b']);
  });

  test('rows are never held: 200 MB of TABLEDATA leaves a head the size of its FIELDs', () => {
    const start = '<VOTABLE><RESOURCE><TABLE name="big"><FIELD name="i" datatype="int"/><DATA><TABLEDATA>\n';
    const row = '<TR><TD>123456789</TD></TR>'.repeat(40_000);
    function* file(): Generator<string> {
      yield start;
      for (let i = 0; i < 200; i++) yield row;
      yield '</TABLEDATA></DATA></TABLE></RESOURCE></VOTABLE>';
    }
    const head = votableHead(file());
    expect(head.length).toBeLessThan(200);
    expect(readVotableTables(head)[0]?.fields).toEqual([{ name: 'i', datatype: 'int' }]);
  });

  test.each([
    ['a DATA element never closed', '<VOTABLE><RESOURCE><TABLE>\n<DATA><TABLEDATA><TR>', 'the DATA element at line 2 is never closed'],
    ['a comment never closed', '<VOTABLE>\n\n<!-- no end', 'the comment at line 3 is never closed'],
    ['a DATA tag never closed', '<VOTABLE><DATA ', 'the DATA tag at line 1 is never closed'],
  ])('refuses %s', (_, xml, message) => {
    expect(() => votableHead(pieces(xml, 4))).toThrow(message);
  });
});

// IFS and spectra metadata to lay over the fixture archive (test/fixtures/archive): `testdir(PRODUCT_FILES)`
// builds it. An IFS and a spectra facility in alpha/dr2, which has catalogues and imaging, and a
// spectra facility in gamma/dr1, a release with nothing else. Their text holds what escaping must
// survive: markup, `]]>`, quotes, commas, C0 and C1 controls (YAML escapes), non-ASCII and white
// space at the ends; their values every placeholder: nulls, a map without wavelengths, `-` and `None`
// for no unit and no description.

/** Curator text with everything the CSV and XML writers must escape, as a YAML double-quoted string. */
export const HOSTILE_YAML =
  '"<b>cube</b> & \\"both\\" \'quotes\' ]]> <![CDATA[ x ]]> &amp;, a comma; ' +
  'controls \\x01\\x08\\x0b\\x0c\\x1b\\x1f\\x7f\\x85 end; Ångström 🔭 שלום e\\u0301 \\u2028LS; lines\\r\\nCRLF\\ttab  "';

/** What HOSTILE_YAML reads as. */
export const HOSTILE_TEXT =
  '<b>cube</b> & "both" \'quotes\' ]]> <![CDATA[ x ]]> &amp;, a comma; ' +
  'controls \x01\x08\x0b\x0c\x1b\x1f\x7f\x85 end; Ångström 🔭 שלום e\u0301 \u2028LS; lines\r\nCRLF\ttab  ';

export const SAMI_FILE = 'alpha/dr2/ifs/sami.yaml';

export const SAMI = `# yaml-language-server: $schema=../../../../schemas/ifs-facility.schema.json
id: 4
name: sami
pretty_name: SAMI
description: A fibre-based integral field spectrograph
created: 2021-01-01T00:00:00Z
updated: 2021-01-01T00:00:00Z
products:
  - id: 11
    name: cube_blue
    pretty_name: Default cube (blue arm)
    description: ${HOSTILE_YAML}
    product_type: cube
    arm: blue
    wave_min_ang: 3750
    wave_max_ang: 5750
    wave_step_ang: 1.04
    resolving_power: 1812.5
    spatial_sampling_arcsec: 0.5
    dimensions: [50, 50, 2048]
    flux_unit: 1e-16erg/(s.cm**2.Angstrom)
    extensions:
      - name: PRIMARY
        holds: Flux
      - name: VARIANCE
        holds: Variance of the flux
      - name: WEIGHT
        holds: Relative weight of each spaxel
  - id: 12
    name: stelkin_velocity
    description: '-'
    product_type: map
    spatial_sampling_arcsec: 0.5
    dimensions: [50, 50]
    flux_unit: km/s
  - id: 13
    name: "cube<&>\\"]]>é,x"
    description: 'Plain text'
    product_type: cube
    arm: red
    wave_min_ang: 6300
    wave_max_ang: 7400
    flux_unit: None
`;

export const AAOMEGA = `# yaml-language-server: $schema=../../../../schemas/spectra-facility.schema.json
id: 7
name: aaomega
created: 2021-02-01T00:00:00Z
updated: 2021-02-01T00:00:00Z
products:
  - id: 21
    name: spectrum
    description: One spectrum per target, both arms spliced
    product_type: spectrum
    wave_min_ang: 3700
    wave_max_ang: 8850
    wave_step_ang: 1.0
    resolving_power: 1300
    dimensions: [5150]
    flux_unit: 1e-17erg/(s.cm**2.Angstrom)
    extensions:
      - name: PRIMARY
        holds: Flux
      - name: normalised spectra
        holds: The flux divided by its continuum
      - name: "sky's spectrum"
        holds: The sky subtracted
`;

export const HERMES = `# yaml-language-server: $schema=../../../../schemas/spectra-facility.schema.json
id: 2
name: hermes
created: 2022-01-01T00:00:00Z
updated: 2022-01-01T00:00:00Z
products:
  - id: 5
    name: ccd1
    product_type: spectrum
    arm: blue
    wave_min_ang: 4713
    wave_max_ang: 4903
    resolving_power: 28000
  - id: 6
    name: ccd2
    product_type: spectrum
    arm: green
    wave_min_ang: 5648
    wave_max_ang: 5873
    resolving_power: 28000
`;

const GAMMA_DR1 = `name: dr1
pretty_name: Gamma DR1
version: 1
data_release_number: 1
contact: {name: Gamma Team, email: gamma-team@example.org}
created: 2022-01-01T00:00:00Z
updated: 2022-01-01T00:00:00Z
`;

/** Paths under metadata/ and their text, for testdir. */
export const PRODUCT_FILES: Readonly<Record<string, string>> = {
  [SAMI_FILE]: SAMI,
  'alpha/dr2/spectra/aaomega.yaml': AAOMEGA,
  'gamma/dr1/release.yaml': GAMMA_DR1,
  'gamma/dr1/spectra/hermes.yaml': HERMES,
};

// Where imaging regions are on the sky: footprints from FITS headers against the gnomonic projection
// written out by hand and against astropy's WCS, the keyword sets the standard allows, headers with no
// usable WCS, and centres in other units and frames.

import { describe, expect, test } from 'vitest';
import { centreOf, footprintOf, pixelToSky, readWcs } from '../src/outputs/browser/pictures/footprint.ts';
import type { SkyPoint } from '../src/outputs/browser/pictures/footprint.ts';
import { gnomonic, header, separation, tan } from './sky-fixture.ts';
import type { Cards } from './sky-fixture.ts';

describe('footprints from FITS headers', () => {
  // CRVAL (150, 2), 1 arcsec pixels, 3600 × 3600: a 1° × 1° box about (150, 2). The ring starts at
  // pixel (0.5, 0.5), where x = CD1_1 · (0.5 - 1800.5) = +0.5° (east: CD1_1 is negative) and y = -0.5°.
  const expected = [
    gnomonic(150, 2, 0.5, -0.5),
    gnomonic(150, 2, -0.5, -0.5),
    gnomonic(150, 2, -0.5, 0.5),
    gnomonic(150, 2, 0.5, 0.5),
    gnomonic(150, 2, 0.5, -0.5),
  ];

  test('a TAN header’s corners land where the gnomonic projection written out by hand puts them', () => {
    const ring = footprintOf(tan(150, 2, 1)) ?? [];
    expect(ring).toHaveLength(5);
    ring.forEach((point, i) => expect(separation(point, expected[i] as SkyPoint)).toBeLessThan(1e-6));
    // A degree each way about (150, 2): 1/cos(2°) degrees of right ascension.
    const ras = ring.map(([ra]) => ra);
    const decs = ring.map(([, dec]) => dec);
    expect(Math.max(...ras) - Math.min(...ras)).toBeCloseTo(1 / Math.cos((2 * Math.PI) / 180), 2);
    expect(Math.max(...decs) - Math.min(...decs)).toBeCloseTo(1, 2);
    expect((Math.max(...ras) + Math.min(...ras)) / 2).toBeCloseTo(150, 6);
  });

  // The same image written with each way the standard allows.
  const same: [string, Cards][] = [
    ['a CD matrix', {}],
    ['CDELT', { CD1_1: '', CD1_2: '', CD2_1: '', CD2_2: '', CDELT1: -1 / 3600, CDELT2: 1 / 3600 }],
    ['CDELT and an identity PC', { CD1_1: '', CD1_2: '', CD2_1: '', CD2_2: '', CDELT1: -1 / 3600, CDELT2: 1 / 3600, PC1_1: 1, PC2_2: 1 }],
    ['CDELT and CROTA2 = 0', { CD1_1: '', CD1_2: '', CD2_1: '', CD2_2: '', CDELT1: -1 / 3600, CDELT2: 1 / 3600, CROTA2: 0 }],
    ['CDELT in arcsec', { CD1_1: '', CD1_2: '', CD2_1: '', CD2_2: '', CDELT1: -1, CDELT2: 1, CUNIT1: 'arcsec', CUNIT2: 'arcsec' }],
    ['only the diagonal of CD', { CD1_2: '', CD2_1: '' }],
    ['a SIP distortion', { CTYPE1: 'RA---TAN-SIP', CTYPE2: 'DEC--TAN-SIP' }],
    ['TPV', { CTYPE1: 'RA---TPV', CTYPE2: 'DEC--TPV' }],
    ['numbers written as strings', { CRVAL1: '150.0', CRVAL2: '2.0' }],
    ['a tile-compressed image', { NAXIS1: 8, NAXIS2: 200, ZIMAGE: true, ZNAXIS1: 3600, ZNAXIS2: 3600 }],
  ];
  test.each(same)('the same box from %s', (_name, cards) => {
    // An empty string stands for a keyword left out.
    const base = Object.fromEntries(Object.entries(tan(150, 2, 1)).map(([k, [v]]) => [k, v]));
    const merged = Object.fromEntries(Object.entries({ ...base, ...cards }).filter(([, v]) => v !== ''));
    const ring = footprintOf(header(merged)) ?? [];
    expect(ring).toHaveLength(5);
    ring.forEach((point, i) => expect(separation(point, expected[i] as SkyPoint)).toBeLessThan(1e-6));
  });

  // Pixel → sky from astropy 5.2's WCS (wcs_pix2world, origin 1); galactic and ecliptic positions
  // turned into ICRS by astropy's SkyCoord. Pixels: the corners, two mid-edges and one inside.
  const astropy: [string, Cards, [number, number, number, number][], number][] = [
    [
      'SIN with CDELT and CROTA2',
      {
        CTYPE1: 'RA---SIN',
        CTYPE2: 'DEC--SIN',
        CRVAL1: 30,
        CRVAL2: -60,
        CRPIX1: 1000.5,
        CRPIX2: 500.5,
        CDELT1: -0.01,
        CDELT2: 0.01,
        CROTA2: 25,
        NAXIS1: 2000,
        NAXIS2: 1000,
      },
      [
        [0.5, 0.5, 51.8778115, -58.4344926],
        [2000.5, 0.5, 11.2829696, -67.7897576],
        [2000.5, 1000.5, 8.492608, -57.85591],
        [0.5, 1000.5, 41.0219513, -50.6197165],
        [1000.5, 0.5, 34.9067301, -64.4576276],
        [0.5, 500.5, 45.8753725, -54.6717596],
        [123.25, 77.75, 49.0972669, -58.7053838],
      ],
      0.001,
    ],
    [
      'ZEA in galactic coordinates with a CD matrix',
      {
        CTYPE1: 'GLON-ZEA',
        CTYPE2: 'GLAT-ZEA',
        CRVAL1: 120,
        CRVAL2: 30,
        CRPIX1: 500.5,
        CRPIX2: 500.5,
        CD1_1: -0.04,
        CD1_2: 0.03,
        CD2_1: 0.03,
        CD2_2: 0.04,
        NAXIS1: 1000,
        NAXIS2: 1000,
      },
      [
        [0.5, 0.5, 16.2624777, 57.1752374],
        [1000.5, 0.5, 285.4845228, 51.7613563],
        [1000.5, 1000.5, 202.3268968, 50.8257735],
        [0.5, 1000.5, 114.269747, 56.111221],
        [500.5, 0.5, 326.3526833, 65.2298572],
        [0.5, 500.5, 66.3605337, 68.5782053],
        [123.25, 77.75, 11.480186, 64.3245559],
      ],
      // astropy goes from galactic through FK5, the Hipparcos matrix straight to ICRS: 0.02" apart.
      0.05,
    ],
    [
      'ARC over the pole with PC and CDELT',
      {
        CTYPE1: 'RA---ARC',
        CTYPE2: 'DEC--ARC',
        CRVAL1: 200,
        CRVAL2: 80,
        CRPIX1: 400.5,
        CRPIX2: 300.5,
        CDELT1: -0.1,
        CDELT2: 0.1,
        PC1_1: 0.8,
        PC1_2: -0.6,
        PC2_1: 0.6,
        PC2_2: 0.8,
        NAXIS1: 800,
        NAXIS2: 600,
      },
      [
        [0.5, 0.5, 214.3924667, 30.352656],
        [800.5, 0.5, 118.2901202, 39.2734502],
        [800.5, 600.5, 39.2965843, 49.5280264],
        [0.5, 600.5, 281.7098798, 39.2734502],
        [400.5, 0.5, 171.1382164, 51.5737928],
        [0.5, 300.5, 245.0777952, 43.4274216],
        [123.25, 77.75, 211.6992115, 44.6886832],
      ],
      0.001,
    ],
    [
      'STG with CUNIT arcsec',
      {
        CTYPE1: 'RA---STG',
        CTYPE2: 'DEC--STG',
        CUNIT1: 'arcsec',
        CUNIT2: 'arcsec',
        CRVAL1: 0,
        CRVAL2: 0,
        CRPIX1: 500.5,
        CRPIX2: 250.5,
        CDELT1: -72,
        CDELT2: 72,
        NAXIS1: 1000,
        NAXIS2: 500,
      },
      [
        [0.5, 0.5, 9.9935174, -4.9590415],
        [1000.5, 0.5, 350.0064826, -4.9590415],
        [1000.5, 500.5, 350.0064826, 4.9590415],
        [0.5, 500.5, 9.9935174, 4.9590415],
        [500.5, 0.5, 0, -4.9968305],
        [0.5, 250.5, 9.9747306, 0],
        [123.25, 77.75, 7.540931, -3.4390401],
      ],
      0.001,
    ],
    [
      'CAR on the equator',
      {
        CTYPE1: 'RA---CAR',
        CTYPE2: 'DEC--CAR',
        CRVAL1: 180,
        CRVAL2: 0,
        CRPIX1: 100.5,
        CRPIX2: 50.5,
        CDELT1: -0.1,
        CDELT2: 0.1,
        NAXIS1: 200,
        NAXIS2: 100,
      },
      [
        [0.5, 0.5, 190, -5],
        [200.5, 0.5, 170, -5],
        [200.5, 100.5, 170, 5],
        [0.5, 100.5, 190, 5],
        [100.5, 0.5, 180, -5],
        [0.5, 50.5, 190, 0],
        [123.25, 77.75, 177.725, 2.725],
      ],
      0.001,
    ],
    [
      'TAN in ecliptic coordinates',
      {
        CTYPE1: 'ELON-TAN',
        CTYPE2: 'ELAT-TAN',
        CRVAL1: 45,
        CRVAL2: 10,
        CRPIX1: 50.5,
        CRPIX2: 50.5,
        CDELT1: -0.05,
        CDELT2: 0.05,
        NAXIS1: 100,
        NAXIS2: 100,
      },
      [
        [0.5, 0.5, 42.7499772, 24.2372145],
        [100.5, 0.5, 37.5690724, 22.706859],
        [100.5, 100.5, 35.7420573, 27.4169004],
        [0.5, 100.5, 41.1117925, 29.0098877],
        [50.5, 0.5, 40.1444914, 23.4934452],
        [0.5, 50.5, 41.9479968, 26.6258957],
        [123.25, 77.75, 34.9822049, 25.9623223],
      ],
      0.05,
    ],
  ];
  test.each(astropy)('%s: pixels land where astropy puts them', (_name, cards, points, arcsec) => {
    const wcs = readWcs(header(cards));
    if (typeof wcs === 'string') throw new Error(wcs);
    for (const [p1, p2, ra, dec] of points) {
      const sky = pixelToSky(wcs, p1, p2);
      expect(sky, `pixel ${p1}, ${p2}`).toBeDefined();
      expect(separation(sky as SkyPoint, [ra, dec]), `pixel ${p1}, ${p2}`).toBeLessThan(arcsec);
    }
  });

  test('edges that curve are sampled about a degree apart; TAN edges, great circles, are not', () => {
    const [, sin] = astropy[0] ?? [];
    const ring = footprintOf(header(sin ?? {})) ?? [];
    // 20° × 10°: 20 + 10 + 20 + 10 points and the closing one.
    expect(ring).toHaveLength(61);
    for (let i = 1; i < ring.length; i++) expect(separation(ring[i - 1] as SkyPoint, ring[i] as SkyPoint) / 3600).toBeLessThan(1.1);
    expect(footprintOf(tan(100, 50, 40, 36))).toHaveLength(5);
  });

  const unusable: [string, Cards, RegExp][] = [
    ['no CTYPE', { CTYPE1: '', CTYPE2: '' }, /no CTYPE1/],
    ['a projection not drawn', { CTYPE1: 'RA---AIT', CTYPE2: 'DEC--AIT' }, /AIT projection/],
    ['axes of two frames', { CTYPE2: 'GLAT-TAN' }, /different frames/],
    ['axes in the wrong order', { CTYPE1: 'DEC--TAN', CTYPE2: 'RA---TAN' }, /longitude and latitude/],
    ['two projections', { CTYPE2: 'DEC--SIN' }, /different projections/],
    ['CAR off the equator', { CTYPE1: 'RA---CAR', CTYPE2: 'DEC--CAR' }, /CRVAL2 other than 0/],
    ['no size', { NAXIS1: '', NAXIS2: '' }, /NAXIS1/],
    ['no scale', { CD1_1: '', CD1_2: '', CD2_1: '', CD2_2: '' }, /neither a CD matrix/],
    ['a singular CD matrix', { CD1_1: 0, CD2_2: 0 }, /singular/],
    ['a unit that is not an angle', { CUNIT1: 'm' }, /not an angle/],
  ];
  test.each(unusable)('a header with %s has no footprint', (_name, cards, reason) => {
    const base = Object.fromEntries(Object.entries(tan(150, 2, 1)).map(([k, [v]]) => [k, v]));
    const merged = header(Object.fromEntries(Object.entries({ ...base, ...cards }).filter(([, v]) => v !== '')));
    expect(readWcs(merged)).toMatch(reason);
    expect(footprintOf(merged)).toBeUndefined();
  });

  const centres: [string, string, string, string, SkyPoint | RegExp][] = [
    ['135.0', '0.5', 'deg', 'icrs', [135, 0.5]],
    ['135.0', '0.5', 'deg', 'fk5', [135, 0.5]],
    ['9', '-30', 'hourangle', 'icrs', [135, -30]],
    ['9.5', '-30', 'h', 'fk5', [142.5, -30]],
    [String(Math.PI), String(-Math.PI / 4), 'rad', 'icrs', [180, -45]],
    ['60', '-30', 'arcmin', 'icrs', [1, -0.5]],
    ['-10', '5', 'deg', 'icrs', [350, 5]],
    ['0', '0', 'deg', 'galactic', [266.40499, -28.93617]],
    ['0', '90', 'deg', 'galactic', [192.85948, 27.12825]],
    ['1', '2', 'deg', 'supergalactic', /frame "supergalactic"/],
    ['1', '2', 'm', 'icrs', /unit "m"/],
    ['1', '95', 'deg', 'icrs', /not a position/],
    ['one', '2', 'deg', 'icrs', /not an angle|not a position/],
  ];
  test.each(centres)('a centre (%s, %s) in %s, %s', (ra, dec, unit, frame, want) => {
    const got = centreOf(ra, dec, unit, frame);
    if (want instanceof RegExp) expect(got).toMatch(want);
    else {
      expect(typeof got).not.toBe('string');
      expect(separation(got as SkyPoint, want)).toBeLessThan(0.1);
    }
  });
});

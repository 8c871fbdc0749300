// Units against UCDs, case by case: units of the kind a UCD word asks for pass, in any VOUnit
// spelling (and in the spellings check repairs); units of another kind are named with the fix to
// make; where either says too little, nothing is said.

import { describe, expect, test } from 'vitest';
import { unitDimension, unitKindProblem } from '../src/vocabularies/unit-kinds.ts';

describe('units of the kind their UCD asks for pass', () => {
  test.each([
    ['em.wl', 'Angstrom'],
    ['em.wl.central', '0.1nm'],
    ['em.wl;stat.min', 'nm'],
    ['em.wl.effective', 'um'],
    ['pos.eq.ra;meta.main', 'deg'],
    ['pos.eq.ra', 'h'],
    ['POS.EQ.DEC;META.MAIN', 'arcsec'],
    ['pos.galactic.lon', 'rad'],
    ['pos.angDistance', 'arcmin'],
    ['pos.parallax', 'mas'],
    ['pos.pm;pos.eq.ra', 'mas/yr'],
    ['pos.distance', 'Mpc'],
    ['phys.veloc;pos.heliocentric', 'km/s'],
    ['phys.veloc.rotat', 'km s-1'],
    ['spect.dopplerVeloc.opt', 'km.s**-1'],
    ['phot.mag;em.opt.R', 'mag'],
    ['stat.error;phot.mag;em.opt.R', 'mag'],
    ['phot.mag.sb;em.opt.R', 'mag/arcsec**2'],
    ['phot.mag.sb', 'mag/arcsec^2'],
    ['phys.magAbs;em.opt.R', 'mag'],
    ['phot.color', 'mag'],
    ['phot.flux.density;em.opt.R', 'Jy'],
    ['phot.flux.density', 'uJy'],
    ['phot.flux.density;em.wl', 'erg/(s.cm**2.Angstrom)'],
    ['phot.flux.density', '10**(-17)erg.s**-1.cm**-2.Angstrom**-1'],
    ['phot.flux.density', 'ph/(s.cm**2.Angstrom)'],
    ['phot.flux.density', 'ct/s'],
    ['phot.flux.density', 'adu'],
    ['phot.flux.density.sb', 'mJy/arcsec**2'],
    ['time.epoch', 'd'],
    ['time.duration;obs.exposure', 's'],
    ['time.age', 'Gyr'],
    ['phys.size.radius', 'kpc'],
    ['phys.size.radius', 'arcsec'],
    ['phys.size.smajAxis;instr.det', 'pixel'],
    ['phys.angSize;em.opt.R', 'arcsec'],
    ['phys.size.axisRatio', '1'],
    ['phys.mass', 'solMass'],
    ['phys.luminosity', 'solLum'],
    ['phys.luminosity', 'erg/s'],
    ['phys.temperature.effective', 'K'],
    ['phys.gravity', 'cm.s**-2'],
    ['em.freq', 'GHz'],
    ['em.energy', 'keV'],
    ['em.wavenumber', 'cm**-1'],
  ])('%s in %s', (ucd, unit) => {
    expect(unitKindProblem(unit, ucd)).toBeUndefined();
  });
});

describe('where the UCD or the unit says too little, nothing is said', () => {
  test.each([
    ['src.redshift', 'A', 'a UCD word not listed allows any unit'],
    ['meta.id;meta.main', 'm', 'a UCD word not listed allows any unit'],
    ['stat.snr;phot.flux.density', 'Jy', 'a signal-to-noise ratio is not in the unit of what it is of'],
    ['-', 'A', 'no UCD'],
    ['em.wl', '-', 'no unit'],
    ['em.wl', 'None', 'no unit'],
    ['em.wl', 'unknown', "VOUnits' word for a lost unit"],
    ['phys.mass', 'log(solMass)', 'a logarithm has no dimension to compare'],
    ['phys.mass', 'dex', 'not a VOUnit'],
    ['em.wl', "'furlong'", 'a custom unit'],
    ['time.start', 'hms', 'a format, not a unit (check says so)'],
    ['em.wl', 'ergs/cm2/s/A/whatever', 'not a VOUnit, and not repaired'],
  ])('%s in %s (%s)', (ucd, unit) => {
    expect(unitKindProblem(unit, ucd)).toBeUndefined();
  });
});

describe('units of another kind are named, with the fix', () => {
  test.each([
    [
      'em.wl;stat.min',
      'A',
      /^is an electric current, where its UCD word em\.wl asks for a wavelength \(a length\); write Angstrom or 0\.1nm \(in VOUnits A is the ampere\)$/,
    ],
    ['em.wl.central', 'mA', /^is an electric current, where .*; write it in m, km, pc, Angstrom or 0\.1nm$/],
    [
      'phot.flux.density;em.wl',
      'erg/s/cm**2/A',
      /^is of dimension kg\.s\*\*-3\.A\*\*-1, where its UCD word phot\.flux\.density asks for a flux density \(per frequency or per wavelength, of energy, photons or counts\); write erg\/\(s\.cm\*\*2\.Angstrom\) \(in VOUnits A is the ampere\)$/,
    ],
    [
      'pos.eq.ra;meta.main',
      'm',
      /^is a length, where its UCD word pos\.eq\.ra asks for a right ascension \(an angle or a time\); write it in deg, arcsec or mas$/,
    ],
    [
      'pos.angDistance',
      'km',
      /^is a length, where its UCD word pos\.angDistance asks for an angular distance \(an angle\); write it in deg/,
    ],
    [
      'stat.error;phot.mag;em.opt.R',
      'Jy',
      /^is a flux density per frequency, where its UCD word phot\.mag asks for a magnitude; write it in mag, or give the column a flux UCD such as phot\.flux\.density$/,
    ],
    ['phot.flux.density', 'mag', /^is a magnitude, where .*; write it in Jy or mJy, or give the column a magnitude UCD such as phot\.mag$/],
    [
      'phys.veloc',
      'km',
      /^is a length, where its UCD word phys\.veloc asks for a velocity \(a length per time\); write it in km\/s or m\/s$/,
    ],
    [
      'spect.dopplerVeloc',
      'km/h**2',
      /^is an acceleration, where its UCD word spect\.dopplerVeloc asks for a Doppler velocity \(a length per time\)/,
    ],
    ['time.epoch', 'deg', /^is an angle, where its UCD word time\.epoch asks for a time; write it in s, d or yr$/],
    [
      'phys.size.axisRatio',
      'arcsec',
      /^is an angle, where its UCD word phys\.size\.axisRatio asks for an axis ratio \(a pure number\); write '-', for no unit$/,
    ],
    ['phys.size.radius', 'kpc/h', /^is a length per time, where its UCD word phys\.size\.radius asks for a size \(a length or an angle\)/],
    ['phys.mass', 'solLum', /^is a power, where its UCD word phys\.mass asks for a mass; write it in solMass or kg$/],
    ['pos.distance', 'pixel', /^is a number of pixels, where its UCD word pos\.distance asks for a distance \(a length\)/],
  ])('%s in %s', (ucd, unit, message) => {
    expect(unitKindProblem(unit, ucd)).toMatch(message);
  });
});

describe("a unit's dimension", () => {
  test.each([
    ['Angstrom', { m: 1 }],
    ['km.s**-1', { m: 1, s: -1 }],
    ['10**(-17)erg/(s.cm**2.Angstrom)', { kg: 1, m: -1, s: -3 }],
    ['Jy', { kg: 1, s: -2 }],
    ['mas/yr', { rad: 1, s: -1 }],
    ['sqrt(Hz)', { s: -0.5 }],
    ['m**(3/2)', { m: 1.5 }],
    ['Pa', { kg: 1, m: -1, s: -2 }],
    ['kPa', { kg: 1, m: -1, s: -2 }],
    ['Mpc', { m: 1 }],
    ['%', {}],
    ['1', {}],
    ['ct/pixel', { pix: -1 }],
    ['mag/arcsec**2', { mag: 1, rad: -2 }],
  ])('%s', (unit, exponents) => {
    const found = unitDimension(unit);
    expect(found).toBeDefined();
    expect(Object.fromEntries(Object.entries(found ?? {}).filter(([, n]) => n !== 0))).toEqual(exponents);
  });
});

// What a FITS header says about an IFS or spectra data product, for `import product`: the main
// data array's axes, the wavelengths its spectral axis covers, the size of a spaxel, the data's
// unit, the arm, and the file's HDUs. Only what the header states is read; what it leaves open
// (an HDU nobody described, a unit it does not give) is said in a note placed at the field, so
// the curator sees where to look. A header that cannot be read as a product is refused, naming
// the keyword and what to do.

import path from 'node:path';
import type { FitsHdu, FitsValue } from '../readers/fits.ts';
import type { PathSegment } from '../pipeline/parse.ts';
import { RewriteError } from './rewrite.ts';

export const PRODUCT_TYPES = ['cube', 'map', 'spectrum'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export interface ImportedExtension {
  name: string;
  /** What the HDU holds, when its name or its own keywords say so. */
  holds?: string;
  /** What the header says it is ("Image of 50 × 50 × 2048"), written when nothing says what it holds. */
  shape: string;
}

/** The fields of a product a header gives; left out when it does not give them. */
export interface ProductFields {
  product_type: ProductType;
  arm?: string;
  wave_min_ang?: number;
  wave_max_ang?: number;
  /** null: the axis is not sampled evenly (logarithmic). */
  wave_step_ang?: number | null;
  spatial_sampling_arcsec?: number;
  dimensions: number[];
  flux_unit?: string;
  extensions: ImportedExtension[];
}

/** Something the curator should look at, placed at a key of the product. */
export interface ProductNote {
  at: PathSegment[];
  rule: string;
  message: string;
}

export interface ImportedProduct {
  fields: ProductFields;
  /** The HDU the data array is in. */
  hdu: number;
  /** Which keywords each value came from, one line per field, for the report. */
  readFrom: string[];
  notes: ProductNote[];
}

export interface ProductOptions {
  hdu?: number;
  type?: ProductType;
  arm?: string;
  /** What the facility's schema allows as an extension's name, and how it says so; by default upper-case EXTNAMEs. */
  extensionName?: { allows: (name: string) => boolean; rule: string };
}

/** Where spectrographs work, in Angstrom: the range `check` holds wave_min_ang and wave_max_ang to. */
export const WAVE_RANGE_ANG = { min: 300, max: 300_000 };
/** A spectral axis without a unit is taken as Angstrom only inside this range: below it, nm is as likely. */
const TYPICAL_ANGSTROM = { min: 1000, max: 300_000 };

/** Wavelength units (CUNITn) in Angstrom. FITS units are case-sensitive; the words are matched in any case. */
const WAVE_UNITS: Readonly<Record<string, number>> = { m: 1e10, cm: 1e8, mm: 1e7, um: 1e4, nm: 10, pm: 0.01, '0.1nm': 1, Å: 1 };
const WAVE_WORDS: Readonly<Record<string, number>> = { angstrom: 1, angstroms: 1, micron: 1e4, microns: 1e4 };
/** Angles (CUNITn of a sky axis) in arcseconds. */
const ANGLE_UNITS: Readonly<Record<string, number>> = { deg: 3600, arcmin: 60, arcsec: 1, mas: 0.001, rad: (180 / Math.PI) * 3600 };

/** Spectral CTYPEs that are not wavelengths: read as such they would give wrong numbers. */
const OTHER_SPECTRAL = /^(FREQ|ENER|WAVN|VRAD|VOPT|ZOPT|VELO|VELOCITY|BETA|FELO)\b/;
const SKY = /^(RA|DEC|GLON|GLAT|ELON|ELAT|SLON|SLAT|HLON|HLAT)\b|^[A-Z]{2}(LN|LT)\b/;

/** Arm names as headers write them (AAOmega's SPECTID is BL or RD, HERMES adds GN and IR), and the arm each means. */
const ARMS: Readonly<Record<string, string>> = {
  BL: 'blue',
  BLUE: 'blue',
  GN: 'green',
  GREEN: 'green',
  RD: 'red',
  RED: 'red',
  IR: 'ir',
  NIR: 'nir',
  VIS: 'vis',
  UV: 'uv',
  UVB: 'uvb',
};
const ARM_KEYWORDS = ['ARM', 'SPECTID', 'CAMERA'];

/** What an HDU holds when its EXTNAME says it, and only where the name has one meaning in a spectrum or cube file. */
const HOLDS_BY_NAME: Readonly<Record<string, string>> = {
  FLUX: 'Flux',
  VARIANCE: 'Variance of the flux',
  VAR: 'Variance of the flux',
  IVAR: 'Inverse variance of the flux',
  INVVAR: 'Inverse variance of the flux',
  WAVE: 'Wavelength of each pixel',
  WAVELENGTH: 'Wavelength of each pixel',
};
/** EXTNAME comments that only say what the keyword is ("extension name"), not what the HDU holds. */
const BOILERPLATE =
  /^(?:(?:the |this )?(?:extension|ext|hdu|header)(?:'s)? name|name of (?:the |this )?(?:extension|hdu|header)|extname)\.?$/i;
/** Units of a spectral flux density (per wavelength or frequency), which make a cube's or spectrum's data its flux. */
const FLUX_UNIT = /erg|jy|\bw\b|w[./]|photon/i;
const EXTNAME = { allows: (name: string) => /^[A-Z0-9_-]{1,68}$/.test(name), rule: "upper-case letters, digits, '_' or '-'" };

const precise = (x: number, digits: number): number => Number(x.toPrecision(digits));
const quoted = (v: FitsValue | undefined): string => (typeof v === 'string' ? `'${v}'` : String(v));

/** The product a set of HDUs describes. `file` names the source in messages. */
export function describeProduct(hdus: readonly FitsHdu[], file: string, options: ProductOptions = {}): ImportedProduct {
  const fail = (detail: string) => new RewriteError(`${file}: ${detail}`);
  const hdu = mainHdu(hdus, file, options.hdu);
  const at = `HDU ${hdu.index}`;
  const readFrom: string[] = [];
  const notes: ProductNote[] = [];
  const kw = (key: string): FitsValue | undefined => hdu.get(key)?.value ?? undefined;
  const text = (key: string): string | undefined => {
    const v = kw(key);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };
  const number = (key: string): number | undefined => {
    const v = kw(key);
    if (v === undefined) return undefined;
    if (typeof v !== 'number')
      throw fail(`${at}: ${key} is ${quoted(v)}, not a number; fix it in the file or in a text dump of its header`);
    return v;
  };
  const dimensions = axesOf(hdu);
  const naxis = dimensions.length;
  const ctype = (n: number) => (text(`CTYPE${n}`) ?? '').toUpperCase();
  const ctypes = () =>
    dimensions
      .map((_, i) => `CTYPE${i + 1} = ${text(`CTYPE${i + 1}`) === undefined ? 'none' : `'${text(`CTYPE${i + 1}`) ?? ''}'`}`)
      .join(', ');

  // The spectral axis: named by its CTYPE, or the axis a cube or a spectrum has it on.
  let spectral: { axis: number; assumed: boolean } | undefined;
  for (let n = 1; n <= naxis && !spectral; n++) {
    const c = ctype(n);
    if (/^(WAVE|AWAV)\b|^(WAVELENGTH|LAMBDA)$/.test(c) || /^(WAVE|AWAV)-/.test(c)) spectral = { axis: n, assumed: false };
  }
  const wantsWaves = options.type === undefined ? naxis !== 2 : options.type !== 'map';
  if (!spectral && wantsWaves) {
    const other = dimensions.findIndex((_, i) => OTHER_SPECTRAL.test(ctype(i + 1)));
    if (other >= 0) {
      throw fail(
        `${at}: the spectral axis is ${ctype(other + 1)} (CTYPE${other + 1}), not a wavelength; import product reads wavelength axes (WAVE, AWAV) only, so write this product into the facility file by hand, or pass --type map if the file is a map`,
      );
    }
    // A cube has its wavelengths on axis 3 and a spectrum on axis 1, as every writer puts them.
    const fallback =
      options.type === 'cube' || (options.type === undefined && naxis === 3) ? 3 : naxis === 1 || options.type === 'spectrum' ? 1 : 0;
    if (fallback > 0 && fallback <= naxis && ['', 'LINEAR'].includes(ctype(fallback))) spectral = { axis: fallback, assumed: true };
  }
  const productType: ProductType =
    options.type ?? (spectral ? (naxis >= 3 ? 'cube' : 'spectrum') : naxis === 2 ? 'map' : naxis >= 3 ? 'cube' : 'spectrum');
  if (!spectral && productType !== 'map') {
    throw fail(
      `${at} has no spectral axis: no CTYPEn is WAVE or AWAV (${ctypes()}); import product reads the wavelengths of a ${productType} from a WAVE or AWAV axis, ` +
        `or from an unnamed axis ${productType === 'cube' ? 3 : 1}. Pass --type map if the file is a map, or --hdu to read another HDU`,
    );
  }
  const fields: ProductFields = { product_type: productType, dimensions, extensions: [] };
  readFrom.push(
    `${productType}${options.type ? ' (--type)' : ''} of ${dimensions.join(' × ')} from ${at} (NAXIS${dimensions.map((_, i) => `, NAXIS${i + 1}`).join('')})`,
  );

  if (spectral && productType !== 'map') {
    const k = spectral.axis;
    const c = ctype(k);
    const algorithm = c.length > 4 && /^(WAVE|AWAV)-/.test(c) ? c.slice(5).replace(/^-+/, '') : '';
    if (algorithm !== '' && algorithm !== 'LOG') {
      throw fail(
        `${at}: CTYPE${k} = '${c}' puts the wavelengths in a ${algorithm === 'TAB' ? 'lookup table' : `non-linear (${algorithm}) scale`}, which import product does not read; it reads linear (WAVE, AWAV) and logarithmic (WAVE-LOG) axes, so write this product into the facility file by hand`,
      );
    }
    const crval = number(`CRVAL${k}`);
    if (crval === undefined) {
      throw fail(
        `${at} has no CRVAL${k}, the wavelength at the reference pixel of axis ${k}; add it to the file or to a text dump of its header`,
      );
    }
    const cd = number(`CD${k}_${k}`);
    const cdelt = number(`CDELT${k}`);
    const step = cd ?? (cdelt === undefined ? undefined : cdelt * (number(`PC${k}_${k}`) ?? 1));
    if (step === undefined || step === 0) {
      throw fail(
        `${at} has ${step === 0 ? `${cd === undefined ? 'CDELT' : 'CD'}${k}${cd === undefined ? '' : `_${k}`} = 0` : `no CDELT${k} or CD${k}_${k}`}, so the wavelength step of axis ${k} is not known; add it to the file or to a text dump of its header`,
      );
    }
    const crpixGiven = number(`CRPIX${k}`);
    const crpix = crpixGiven ?? 0;
    const length = dimensions[k - 1] ?? 1;
    const world = (p: number) => (algorithm === 'LOG' ? crval * Math.exp((step * (p - crpix)) / crval) : crval + step * (p - crpix));
    const ends = [world(1), world(length)];
    const low = Math.min(...ends);
    const high = Math.max(...ends);
    if (!(low < high)) throw fail(`${at}: axis ${k} has ${length} pixel${length === 1 ? '' : 's'}, so it covers no wavelength range`);
    const unitText = text(`CUNIT${k}`);
    let factor: number;
    let unitSaid: string;
    if (unitText !== undefined) {
      const known = WAVE_UNITS[unitText] ?? WAVE_WORDS[unitText.toLowerCase()];
      if (known === undefined) {
        throw fail(
          `${at}: CUNIT${k} = '${unitText}' is not a wavelength unit import product knows (m, cm, mm, um, nm, pm, Angstrom); ` +
            `fix CUNIT${k} in the file, or save its header as text (fitsheader ${path.basename(file)} > header.txt), correct CUNIT${k} there and import that`,
        );
      }
      factor = known;
      unitSaid = `CUNIT${k} = '${unitText}'`;
    } else if (high < 1e-3) {
      // The FITS WCS default unit of a wavelength axis is the metre (Greisen et al. 2006, Table 1).
      factor = 1e10;
      unitSaid = `no CUNIT${k}: metres, the FITS default`;
      notes.push({
        at: ['wave_min_ang'],
        rule: 'import/unit-assumed',
        message: `${path.basename(file)} has no CUNIT${k}; its wavelengths (${low} to ${high}) were read as metres, the FITS default for a wavelength axis`,
      });
    } else if (low >= TYPICAL_ANGSTROM.min && high <= TYPICAL_ANGSTROM.max) {
      factor = 1;
      unitSaid = `no CUNIT${k}: Angstrom assumed`;
      notes.push({
        at: ['wave_min_ang'],
        rule: 'import/unit-assumed',
        message: `${path.basename(file)} has no CUNIT${k}; its wavelengths (${precise(low, 10)} to ${precise(high, 10)}) were read as Angstrom, as headers without a unit usually mean; if they are in another unit, correct wave_min_ang, wave_max_ang and wave_step_ang`,
      });
    } else {
      throw fail(
        `${at} has no CUNIT${k}, and axis ${k} runs from ${precise(low, 10)} to ${precise(high, 10)}: not a typical range in Angstrom (${TYPICAL_ANGSTROM.min.toLocaleString('en')}–${TYPICAL_ANGSTROM.max.toLocaleString('en')} Å), which a header without a unit usually means${
          low * 10 >= TYPICAL_ANGSTROM.min && high * 10 <= TYPICAL_ANGSTROM.max ? ', but one in nm' : ''
        }; ` +
          `add CUNIT${k} (such as 'nm' or 'Angstrom') to the file, or to a text dump of its header (fitsheader ${path.basename(file)} > header.txt) and import that`,
      );
    }
    const min = precise(low * factor, 10);
    const max = precise(high * factor, 10);
    if (min < WAVE_RANGE_ANG.min || max > WAVE_RANGE_ANG.max) {
      const hint =
        min * 10 >= WAVE_RANGE_ANG.min && max * 10 <= WAVE_RANGE_ANG.max
          ? ` (is it in nm? then CUNIT${k} = 'nm')`
          : min * 1e4 >= WAVE_RANGE_ANG.min && max * 1e4 <= WAVE_RANGE_ANG.max
            ? ` (is it in µm? then CUNIT${k} = 'um')`
            : min / 10 >= WAVE_RANGE_ANG.min && max / 10 <= WAVE_RANGE_ANG.max
              ? ` (is it in Angstrom? then CUNIT${k} = 'Angstrom')`
              : '';
      throw fail(
        `${at}: axis ${k} runs from ${min} to ${max} Å (CRVAL${k} = ${crval}, ${cd === undefined ? `CDELT${k} = ${cdelt ?? ''}` : `CD${k}_${k} = ${cd}`}, ${unitSaid}), ` +
          `outside where spectrographs work (${WAVE_RANGE_ANG.min}–${WAVE_RANGE_ANG.max.toLocaleString('en')} Å)${hint}; fix CUNIT${k} in the file, or in a text dump of its header (fitsheader ${path.basename(file)} > header.txt) and import that`,
      );
    }
    if (unitText !== undefined && min < TYPICAL_ANGSTROM.min) {
      notes.push({
        at: ['wave_min_ang'],
        rule: 'import/unit-doubtful',
        message: `${path.basename(file)} says CUNIT${k} = '${unitText}', so its wavelengths are ${min}–${max} Å; few spectrographs work below ${TYPICAL_ANGSTROM.min.toLocaleString('en')} Å: if they are in another unit (nm?), fix CUNIT${k} and import again`,
      });
    }
    fields.wave_min_ang = min;
    fields.wave_max_ang = max;
    fields.wave_step_ang = algorithm === 'LOG' ? null : precise(Math.abs(step) * factor, 10);
    const keys = [
      `CRVAL${k}`,
      cd === undefined ? `CDELT${k}` : `CD${k}_${k}`,
      crpixGiven === undefined ? `no CRPIX${k}: 0, the FITS default` : `CRPIX${k}`,
    ];
    readFrom.push(
      `wavelengths ${min}–${max} Å, ${algorithm === 'LOG' ? 'sampled logarithmically (wave_step_ang left null)' : `${fields.wave_step_ang} Å a pixel`}, from axis ${k}` +
        ` (${spectral.assumed ? `taken as the spectral axis: ${c === '' ? `no CTYPE${k}` : `CTYPE${k} = '${c}'`}` : `CTYPE${k} = '${c}'`}; ${keys.join(', ')}; ${unitSaid})`,
    );
    if (spectral.assumed) {
      notes.push({
        at: ['wave_min_ang'],
        rule: 'import/axis-assumed',
        message: `${path.basename(file)} does not name its spectral axis (${c === '' ? `no CTYPE${k}` : `CTYPE${k} = '${c}'`}); axis ${k}, where a ${productType} has its wavelengths, was read as one`,
      });
    }
  }

  if (productType !== 'spectrum') {
    const sampling = spaxel(hdu, number, text);
    if (typeof sampling === 'string') {
      notes.push({
        at: ['name'],
        rule: 'import/no-sampling',
        message: `spatial_sampling_arcsec was left out: ${sampling}; give it by hand`,
      });
    } else {
      fields.spatial_sampling_arcsec = sampling.arcsec;
      readFrom.push(`spatial sampling ${sampling.arcsec} arcsec from ${sampling.from}`);
    }
  }

  const bunit = text('BUNIT');
  if (bunit !== undefined) {
    fields.flux_unit = bunit;
    readFrom.push(`flux_unit '${bunit}' from BUNIT`);
  }

  if (options.arm !== undefined) {
    fields.arm = options.arm;
    readFrom.push(`arm ${options.arm} from --arm`);
  } else {
    for (const key of ARM_KEYWORDS) {
      const written = text(key) ?? (hdus[0] === hdu ? undefined : stringIn(hdus[0], key));
      if (written === undefined) continue;
      const arm = ARMS[written.toUpperCase()];
      if (arm !== undefined) {
        fields.arm = arm;
        readFrom.push(`arm ${arm} from ${key} = '${written}'`);
      } else {
        notes.push({
          at: ['name'],
          rule: 'import/arm',
          message: `${key} = '${written}' does not name an arm import product knows (${Object.keys(ARMS).join(', ')}), so no arm was set; pass --arm if the product comes from one`,
        });
      }
      break;
    }
  }

  fields.extensions = extensionsOf(hdus, hdu, productType, bunit, options.extensionName ?? EXTNAME, notes);
  return { fields, hdu: hdu.index, readFrom, notes };
}

/** NAXIS1…NAXISn of an HDU; none when NAXIS is 0 or missing. */
function axesOf(hdu: FitsHdu): number[] {
  const naxis = hdu.get('NAXIS')?.value;
  if (typeof naxis !== 'number' || !Number.isInteger(naxis) || naxis <= 0) return [];
  return Array.from({ length: naxis }, (_, i) => {
    const v = hdu.get(`NAXIS${i + 1}`)?.value;
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
  });
}

function kindOf(hdu: FitsHdu): string {
  if (hdu.index === 0) return 'IMAGE';
  const x = hdu.get('XTENSION')?.value;
  return typeof x === 'string' ? x.trim().toUpperCase() : 'IMAGE';
}

const hasData = (hdu: FitsHdu): boolean => {
  const axes = axesOf(hdu);
  return axes.length > 0 && axes.every((n) => n > 0);
};

/** The HDU with the product's data: the one asked for, else the primary if it has data, else the first image extension with data. */
function mainHdu(hdus: readonly FitsHdu[], file: string, wanted: number | undefined): FitsHdu {
  const describe = (h: FitsHdu) =>
    kindOf(h) !== 'IMAGE' ? `HDU ${h.index} is a ${kindOf(h)}` : `HDU ${h.index} has NAXIS = ${quoted(h.get('NAXIS')?.value)}`;
  if (wanted !== undefined) {
    const hdu = hdus.find((h) => h.index === wanted);
    if (!hdu) throw new RewriteError(`${file} has no HDU ${wanted}; it has ${hdus.length} (0 to ${hdus.length - 1})`);
    if (kindOf(hdu) !== 'IMAGE' || !hasData(hdu)) {
      throw new RewriteError(`${file}: ${describe(hdu)}, not an image with data; import product reads the data array of an image HDU`);
    }
    return hdu;
  }
  const hdu = hdus.find((h) => kindOf(h) === 'IMAGE' && hasData(h));
  if (!hdu) {
    throw new RewriteError(
      `${file} has no data HDU: no HDU is an image with data (${hdus.map(describe).join(', ')}); import product reads cubes, maps and spectra stored as images`,
    );
  }
  return hdu;
}

function stringIn(hdu: FitsHdu | undefined, key: string): string | undefined {
  const v = hdu?.get(key)?.value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The size of a pixel on the sky along axis 1, in arcseconds, or why it cannot be known. */
function spaxel(
  hdu: FitsHdu,
  number: (key: string) => number | undefined,
  text: (key: string) => string | undefined,
): { arcsec: number; from: string } | string {
  const ctype = (text('CTYPE1') ?? '').toUpperCase();
  const unit = text('CUNIT1');
  const sky = SKY.test(ctype);
  const factor = unit !== undefined ? ANGLE_UNITS[unit] : sky ? ANGLE_UNITS.deg : undefined;
  if (factor === undefined) {
    return unit !== undefined
      ? `CUNIT1 = '${unit}' is not an angle`
      : `axis 1 is not on the sky (${ctype === '' ? 'no CTYPE1' : `CTYPE1 = '${ctype}'`}, no CUNIT1)`;
  }
  const cd11 = number('CD1_1');
  const cd21 = number('CD2_1');
  const cdelt = number('CDELT1');
  let size: number | undefined;
  let from: string;
  if (cd11 !== undefined || cd21 !== undefined) {
    size = Math.hypot(cd11 ?? 0, cd21 ?? 0);
    from = cd21 === undefined || cd21 === 0 ? 'CD1_1' : 'CD1_1 and CD2_1';
  } else if (cdelt !== undefined) {
    size = Math.abs(cdelt) * Math.hypot(number('PC1_1') ?? 1, number('PC2_1') ?? 0);
    from = 'CDELT1';
  } else {
    return `${hdu.get('CTYPE1') ? `axis 1 (CTYPE1 = '${ctype}')` : 'axis 1'} has no CDELT1 or CD1_1`;
  }
  if (size === 0) return `${from} is 0`;
  return { arcsec: precise(size * factor, 6), from: `${from} (${unit ?? 'deg, the default of a sky axis'})` };
}

/** Every HDU of the file, in order, with what it holds where that is known. */
function extensionsOf(
  hdus: readonly FitsHdu[],
  main: FitsHdu,
  type: ProductType,
  bunit: string | undefined,
  extensionName: NonNullable<ProductOptions['extensionName']>,
  notes: ProductNote[],
): ImportedExtension[] {
  const out: ImportedExtension[] = [];
  for (const hdu of hdus) {
    const written = stringIn(hdu, 'EXTNAME');
    // The EXTNAME as the file writes it, or in upper case where only that is a name extensions can list.
    const name = hdu.index === 0 ? 'PRIMARY' : [written, written?.toUpperCase()].find((n) => n !== undefined && extensionName.allows(n));
    if (name === undefined) {
      notes.push({
        at: ['extensions'],
        rule: 'import/extension-name',
        message:
          written === undefined
            ? `HDU ${hdu.index} has no EXTNAME, so it is not listed; add it by hand with the name it is read by`
            : `HDU ${hdu.index} has EXTNAME '${written}', which extensions cannot list (${extensionName.rule}), so it is not listed`,
      });
      continue;
    }
    const comment = hdu.get('EXTNAME')?.comment.trim() ?? '';
    const upper = name.toUpperCase();
    const holds =
      HOLDS_BY_NAME[upper] ??
      (written !== undefined ? HOLDS_BY_NAME[written.toUpperCase()] : undefined) ??
      (hdu === main && type !== 'map' && bunit !== undefined && FLUX_UNIT.test(bunit) ? 'Flux' : undefined) ??
      (comment !== '' && !BOILERPLATE.test(comment) ? comment : undefined) ??
      (hasData(hdu) || kindOf(hdu) !== 'IMAGE' ? undefined : 'Header only (no data)');
    out.push({ name, ...(holds !== undefined ? { holds } : {}), shape: shapeOf(hdu) });
  }
  return out;
}

function shapeOf(hdu: FitsHdu): string {
  const kind = kindOf(hdu);
  const axes = axesOf(hdu);
  if (kind === 'BINTABLE' || kind === 'TABLE') {
    const fields = hdu.get('TFIELDS')?.value;
    const rows = axes[1];
    return `${kind === 'TABLE' ? 'ASCII table' : 'Table'} of ${typeof fields === 'number' ? fields : 0} column${fields === 1 ? '' : 's'}${rows === undefined ? '' : ` and ${rows} row${rows === 1 ? '' : 's'}`}`;
  }
  if (kind !== 'IMAGE') return `${kind} extension`;
  return axes.length === 0 ? 'Header only (no data)' : `Image of ${axes.join(' × ')}`;
}

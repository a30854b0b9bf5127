/**
 * Form 1099-NEC Copy B rendering, checked from the outside with poppler: pdftotext for what the
 * form says, pdftoppm for a page image of the right size. poppler-utils is required, not optional.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents, render1099Nec, type Nec1099Input } from './tax-form';

const run = promisify(execFile);

/** Runs a poppler tool; a missing tool fails with the package to install. */
async function poppler(tool: 'pdftotext' | 'pdftoppm', args: string[]): Promise<string> {
  try {
    const { stdout } = await run(tool, args, { encoding: 'utf8' });
    return stdout;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `${tool} not found: install poppler-utils (e.g. apt-get install poppler-utils) ` +
          'to run the 1099-NEC rendering tests',
        { cause: err },
      );
    }
    throw err;
  }
}

const FULL_SSN = '078-05-1234';

const INPUT: Nec1099Input = {
  year: 2025,
  payer: {
    name: 'BountyHunt Inc.',
    street: '500 Market Street, Suite 1200',
    cityStateZip: 'San Francisco, CA 94105',
    phone: '(415) 555-0123',
    tin: '12-3456789',
  },
  recipient: {
    name: 'Ada Lovelace',
    street: '42 Elm Street Apt. 7B',
    cityStateZip: 'Portland, OR 97201',
    tinLastFour: FULL_SSN.slice(-4),
  },
  accountNumber: 'usr_01HZX4K9Q2',
  nonemployeeCompensationCents: 123_456,
  federalTaxWithheldCents: 7_890,
};

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nec1099-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function renderToFile(input: Nec1099Input, name: string): Promise<string> {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, await render1099Nec(input));
  return file;
}

/** Width and height from a PNG's IHDR chunk (big-endian, bytes 16-23). */
function pngSize(file: string): { width: number; height: number } {
  const buf = fs.readFileSync(file);
  expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(buf.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('render1099Nec', () => {
  it('says what Copy B says, with the recipient TIN masked', async () => {
    const file = await renderToFile(INPUT, 'form');
    const text = await poppler('pdftotext', ['-layout', file, '-']);

    for (const expected of [
      'BountyHunt Inc.',
      '500 Market Street, Suite 1200',
      'San Francisco, CA 94105',
      '(415) 555-0123',
      '12-3456789',
      'Ada Lovelace',
      '42 Elm Street Apt. 7B',
      'Portland, OR 97201',
      'usr_01HZX4K9Q2',
      '***-**-1234',
      '1,234.56',
      '78.90',
      'Form 1099-NEC',
      '1099-NEC',
      'Copy B',
      'For Recipient',
      '2025',
      'Nonemployee compensation',
      'OMB No. 1545-0116',
      '(Rev. January 2024)',
      'For calendar year',
      'Department of the Treasury - Internal Revenue Service',
      "PAYER'S TIN",
      "RECIPIENT'S TIN",
      "RECIPIENT'S name",
      'Account number (see instructions)',
      'Excess golden parachute payments',
      'Federal income tax withheld',
      'State tax withheld',
      "State/Payer's state no.",
      'State income',
      'Instructions for Recipient',
      'Schedule C',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // The Copy B notice, words in order: -layout interleaves the columns, -raw keeps draw order.
    const raw = await poppler('pdftotext', ['-raw', file, '-']);
    const flat = raw.replace(/\s+/g, ' ');
    expect(flat).toContain('This is important tax information and is being furnished to the IRS.');
    expect(flat).toContain('negligence penalty or other sanction may be imposed on you');

    // The full SSN is nowhere: not in the text, not in the file.
    const digitsOnly = FULL_SSN.replace(/-/g, '');
    expect(text).not.toContain(FULL_SSN);
    expect(text.replace(/\D/g, '')).not.toContain(digitsOnly);
    expect(fs.readFileSync(file).toString('latin1')).not.toContain(FULL_SSN);
  });

  it('is one US-letter page titled "Form 1099-NEC <year>"', async () => {
    const doc = await PDFDocument.load(await render1099Nec(INPUT));
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
    expect(doc.getTitle()).toBe('Form 1099-NEC 2025');
  });

  it('renders to an 850x1100 page image at 100 dpi', async () => {
    const file = await renderToFile(INPUT, 'image');
    const prefix = path.join(dir, 'page');
    await poppler('pdftoppm', ['-png', '-r', '100', '-singlefile', file, prefix]);
    const png = `${prefix}.png`;
    expect(fs.existsSync(png)).toBe(true);
    expect(fs.statSync(png).size).toBeGreaterThan(20_000);
    expect(pngSize(png)).toEqual({ width: 850, height: 1100 });
  });

  it('renders names the standard fonts cannot encode without throwing', async () => {
    const input: Nec1099Input = {
      ...INPUT,
      payer: { ...INPUT.payer, name: 'Bounty\u00a0Hunt\u2122 \u{1F680} Inc.\tLtd' },
      recipient: {
        ...INPUT.recipient,
        name: 'Zoë Ünal 🚀 Łukasz 李小龍',
        street: 'Straße 5\nHinterhaus',
        cityStateZip: 'Malmö 211 22, Sverige',
      },
    };
    const file = await renderToFile(input, 'unicode');
    const text = await poppler('pdftotext', ['-layout', file, '-']);
    expect(text).toContain('Zoë Ünal Lukasz');
    expect(text).toContain('Straße 5 Hinterhaus');
    expect(text).toContain('Malmö 211 22, Sverige');
    expect(text).toMatch(/Bounty\s?Hunt™ Inc\. Ltd/);
  });

  it('fits a long name in its box', async () => {
    const name = 'Maximiliana Bartholomea Featherstonehaugh-Cholmondeley-Marjoribanks III';
    const file = await renderToFile({ ...INPUT, recipient: { ...INPUT.recipient, name } }, 'long');
    const text = await poppler('pdftotext', ['-layout', file, '-']);
    expect(text).toContain('Maximiliana Bartholomea');
  });

  it('rejects anything but the last four digits of the TIN, and bad amounts', async () => {
    const withTin = (tinLastFour: string) => ({
      ...INPUT,
      recipient: { ...INPUT.recipient, tinLastFour },
    });
    await expect(render1099Nec(withTin(FULL_SSN))).rejects.toThrow(/last four/);
    await expect(render1099Nec(withTin('078051234'))).rejects.toThrow(/last four/);
    await expect(render1099Nec(withTin('12a4'))).rejects.toThrow(/last four/);
    await expect(render1099Nec({ ...INPUT, nonemployeeCompensationCents: -1 })).rejects.toThrow();
    await expect(render1099Nec({ ...INPUT, nonemployeeCompensationCents: 1.5 })).rejects.toThrow();
    await expect(render1099Nec({ ...INPUT, year: 25 })).rejects.toThrow(/year/);
  });
});

describe('formatCents', () => {
  it('writes dollars with thousands separators and two decimals', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(123_456)).toBe('1,234.56');
    expect(formatCents(100_000_000)).toBe('1,000,000.00');
    expect(formatCents(99_999)).toBe('999.99');
  });
});

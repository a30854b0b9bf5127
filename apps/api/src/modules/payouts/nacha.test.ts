/**
 * The NACHA writer against an independent reader written from the published record layout
 * (positions are 1-based in the layout, so the reader slices [start - 1, end)).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  NachaError,
  isValidAbaRouting,
  writeNachaFile,
  type NachaEntry,
  type NachaFileInput,
} from './nacha';

// ---------------------------------------------------------------------------------------------
// Independent reader: shares nothing with the writer.

interface ParsedFileHeader {
  priorityCode: string;
  immediateDestination: string;
  immediateOrigin: string;
  creationDate: string;
  creationTime: string;
  fileIdModifier: string;
  recordSize: string;
  blockingFactor: string;
  formatCode: string;
  destinationName: string;
  originName: string;
  referenceCode: string;
}
interface ParsedBatchHeader {
  serviceClassCode: string;
  companyName: string;
  discretionaryData: string;
  companyId: string;
  secCode: string;
  entryDescription: string;
  descriptiveDate: string;
  effectiveDate: string;
  settlementDate: string;
  originatorStatusCode: string;
  odfi: string;
  batchNumber: string;
}
interface ParsedEntry {
  transactionCode: string;
  receivingDfi: string;
  checkDigit: string;
  accountNumber: string;
  amountCents: number;
  individualId: string;
  individualName: string;
  discretionaryData: string;
  addendaIndicator: string;
  traceNumber: string;
}
interface ParsedBatchControl {
  serviceClassCode: string;
  entryAddendaCount: number;
  entryHash: string;
  totalDebitCents: number;
  totalCreditCents: number;
  companyId: string;
  mac: string;
  reserved: string;
  odfi: string;
  batchNumber: string;
}
interface ParsedFileControl {
  batchCount: number;
  blockCount: number;
  entryAddendaCount: number;
  entryHash: string;
  totalDebitCents: number;
  totalCreditCents: number;
  reserved: string;
}
interface ParsedFile {
  lines: string[];
  fileHeader: ParsedFileHeader;
  batchHeader: ParsedBatchHeader;
  entries: ParsedEntry[];
  batchControl: ParsedBatchControl;
  fileControl: ParsedFileControl;
  fillerCount: number;
  /** Recomputed from the entry records, not read from the control records. */
  computed: { entryHash: string; totalCreditCents: number; entryCount: number; blocks: number };
}

/** 1-based inclusive field positions, as the layout tables give them. */
function field(line: string, start: number, end: number): string {
  return line.substring(start - 1, end);
}
function digits(line: string, start: number, end: number): number {
  const s = field(line, start, end);
  if (!/^\d+$/.test(s)) throw new Error(`positions ${start}-${end} not numeric: "${s}"`);
  return Number.parseInt(s, 10);
}

function readNacha(text: string): ParsedFile {
  if (!text.endsWith('\n')) throw new Error('file does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((l, i) => {
    if (l.length !== 94) throw new Error(`line ${i + 1} is ${l.length} characters`);
  });
  if (lines.length % 10 !== 0) throw new Error(`${lines.length} lines is not a multiple of 10`);

  let fileHeader: ParsedFileHeader | undefined;
  let batchHeader: ParsedBatchHeader | undefined;
  let batchControl: ParsedBatchControl | undefined;
  let fileControl: ParsedFileControl | undefined;
  const entries: ParsedEntry[] = [];
  let fillerCount = 0;

  for (const l of lines) {
    if (fileControl) {
      if (l !== '9'.repeat(94)) throw new Error('only 9-filler may follow the file control');
      fillerCount++;
      continue;
    }
    switch (l[0]) {
      case '1':
        fileHeader = {
          priorityCode: field(l, 2, 3),
          immediateDestination: field(l, 4, 13),
          immediateOrigin: field(l, 14, 23),
          creationDate: field(l, 24, 29),
          creationTime: field(l, 30, 33),
          fileIdModifier: field(l, 34, 34),
          recordSize: field(l, 35, 37),
          blockingFactor: field(l, 38, 39),
          formatCode: field(l, 40, 40),
          destinationName: field(l, 41, 63),
          originName: field(l, 64, 86),
          referenceCode: field(l, 87, 94),
        };
        break;
      case '5':
        batchHeader = {
          serviceClassCode: field(l, 2, 4),
          companyName: field(l, 5, 20),
          discretionaryData: field(l, 21, 40),
          companyId: field(l, 41, 50),
          secCode: field(l, 51, 53),
          entryDescription: field(l, 54, 63),
          descriptiveDate: field(l, 64, 69),
          effectiveDate: field(l, 70, 75),
          settlementDate: field(l, 76, 78),
          originatorStatusCode: field(l, 79, 79),
          odfi: field(l, 80, 87),
          batchNumber: field(l, 88, 94),
        };
        break;
      case '6':
        entries.push({
          transactionCode: field(l, 2, 3),
          receivingDfi: field(l, 4, 11),
          checkDigit: field(l, 12, 12),
          accountNumber: field(l, 13, 29),
          amountCents: digits(l, 30, 39),
          individualId: field(l, 40, 54),
          individualName: field(l, 55, 76),
          discretionaryData: field(l, 77, 78),
          addendaIndicator: field(l, 79, 79),
          traceNumber: field(l, 80, 94),
        });
        break;
      case '8':
        batchControl = {
          serviceClassCode: field(l, 2, 4),
          entryAddendaCount: digits(l, 5, 10),
          entryHash: field(l, 11, 20),
          totalDebitCents: digits(l, 21, 32),
          totalCreditCents: digits(l, 33, 44),
          companyId: field(l, 45, 54),
          mac: field(l, 55, 73),
          reserved: field(l, 74, 79),
          odfi: field(l, 80, 87),
          batchNumber: field(l, 88, 94),
        };
        break;
      case '9':
        fileControl = {
          batchCount: digits(l, 2, 7),
          blockCount: digits(l, 8, 13),
          entryAddendaCount: digits(l, 14, 21),
          entryHash: field(l, 22, 31),
          totalDebitCents: digits(l, 32, 43),
          totalCreditCents: digits(l, 44, 55),
          reserved: field(l, 56, 94),
        };
        break;
      default:
        throw new Error(`unknown record type ${l[0]}`);
    }
  }
  if (!fileHeader || !batchHeader || !batchControl || !fileControl) {
    throw new Error('missing a header or control record');
  }
  // Entry hash: sum of the 8-digit receiving DFI ids, keep the rightmost 10 digits.
  const hashSum = entries.reduce((acc, e) => acc + BigInt(e.receivingDfi), 0n);
  const entryHash = hashSum.toString().padStart(10, '0').slice(-10);
  return {
    lines,
    fileHeader,
    batchHeader,
    entries,
    batchControl,
    fileControl,
    fillerCount,
    computed: {
      entryHash,
      totalCreditCents: entries.reduce((acc, e) => acc + e.amountCents, 0),
      entryCount: entries.length,
      blocks: lines.length / 10,
    },
  };
}

/** Check digit for 8 routing digits, computed here from the ABA weights (3, 7, 1). */
function withCheckDigit(first8: string): string {
  const w = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...first8].reduce((acc, ch, i) => acc + Number(ch) * (w[i] ?? 0), 0);
  return first8 + String((10 - (sum % 10)) % 10);
}

// ---------------------------------------------------------------------------------------------

const ORIGIN: NachaFileInput['origin'] = {
  immediateDestination: '021000021',
  immediateDestinationName: 'JPMorgan Chase Bank',
  immediateOrigin: '1123456789',
  immediateOriginName: 'BountyHunt Inc',
  companyName: 'BountyHunt',
  companyId: '1123456789',
  companyEntryDescription: 'PAYOUT',
  originatingDfi: '02100002',
};

const THREE: NachaEntry[] = [
  {
    routingNumber: '021000021',
    accountNumber: '123456789',
    accountType: 'checking',
    amountCents: 123_456,
    individualId: 'po_0001',
    individualName: 'Ada Lovelace',
  },
  {
    routingNumber: '011000015',
    accountNumber: '00012345678901234',
    accountType: 'savings',
    amountCents: 5_00,
    individualId: 'po_0002',
    individualName: 'Grace Hopper',
  },
  {
    routingNumber: '121000248',
    accountNumber: '9',
    accountType: 'checking',
    amountCents: 9_999_999_999,
    individualId: 'po_0003',
    individualName: 'Bartholomew Maximilian Featherstonehaugh',
  },
];

function input(entries: NachaEntry[], extra: Partial<NachaFileInput> = {}): NachaFileInput {
  return {
    origin: ORIGIN,
    fileIdModifier: 'A',
    created: new Date('2026-03-06T17:45:00Z'),
    effectiveDate: new Date('2026-03-09T00:00:00Z'),
    entries,
    ...extra,
  };
}

describe('writeNachaFile', () => {
  it('writes a 3-entry file that reads back field by field', () => {
    const out = writeNachaFile(input(THREE));
    const f = readNacha(out.text);

    expect(f.fileHeader).toEqual({
      priorityCode: '01',
      immediateDestination: ' 021000021',
      immediateOrigin: '1123456789',
      creationDate: '260306',
      creationTime: '1745',
      fileIdModifier: 'A',
      recordSize: '094',
      blockingFactor: '10',
      formatCode: '1',
      destinationName: 'JPMORGAN CHASE BANK'.padEnd(23),
      originName: 'BOUNTYHUNT INC'.padEnd(23),
      referenceCode: ' '.repeat(8),
    });
    expect(f.batchHeader).toEqual({
      serviceClassCode: '220',
      companyName: 'BOUNTYHUNT'.padEnd(16),
      discretionaryData: ' '.repeat(20),
      companyId: '1123456789',
      secCode: 'PPD',
      entryDescription: 'PAYOUT'.padEnd(10),
      descriptiveDate: ' '.repeat(6),
      effectiveDate: '260309',
      settlementDate: '   ',
      originatorStatusCode: '1',
      odfi: '02100002',
      batchNumber: '0000001',
    });

    expect(f.entries).toHaveLength(3);
    f.entries.forEach((e, i) => {
      const src = THREE[i]!;
      expect(e.receivingDfi + e.checkDigit).toBe(src.routingNumber);
      expect(e.accountNumber.trimEnd()).toBe(src.accountNumber);
      expect(e.accountNumber).toBe(src.accountNumber.padEnd(17)); // left-justified
      expect(e.amountCents).toBe(src.amountCents);
      expect(e.individualId.trimEnd()).toBe(src.individualId.toUpperCase());
      expect(e.individualName.trimEnd()).toBe(src.individualName.toUpperCase().slice(0, 22));
      expect(e.discretionaryData).toBe('  ');
      expect(e.addendaIndicator).toBe('0');
    });
    expect(f.entries[2]!.individualName).toBe('BARTHOLOMEW MAXIMILIAN');
    expect(f.entries.map((e) => e.transactionCode)).toEqual(['22', '32', '22']);

    expect(out.entryCount).toBe(3);
    expect(out.totalCreditCents).toBe(123_456 + 500 + 9_999_999_999);
  });

  it('batch and file control totals equal the sum of the entries', () => {
    const out = writeNachaFile(input(THREE, { batchNumber: 42 }));
    const f = readNacha(out.text);
    const { batchControl: bc, fileControl: fc, computed } = f;

    expect(bc.serviceClassCode).toBe('220');
    expect(bc.entryAddendaCount).toBe(computed.entryCount);
    expect(bc.entryHash).toBe(computed.entryHash);
    expect(bc.totalDebitCents).toBe(0);
    expect(bc.totalCreditCents).toBe(computed.totalCreditCents);
    expect(bc.companyId).toBe('1123456789');
    expect(bc.mac).toBe(' '.repeat(19));
    expect(bc.reserved).toBe(' '.repeat(6));
    expect(bc.odfi).toBe('02100002');
    expect(bc.batchNumber).toBe('0000042');
    expect(f.batchHeader.batchNumber).toBe('0000042');

    expect(fc.batchCount).toBe(1);
    expect(fc.entryAddendaCount).toBe(computed.entryCount);
    expect(fc.entryHash).toBe(computed.entryHash);
    expect(fc.totalDebitCents).toBe(0);
    expect(fc.totalCreditCents).toBe(computed.totalCreditCents);
    expect(fc.reserved).toBe(' '.repeat(39));

    expect(computed.totalCreditCents).toBe(out.totalCreditCents);
    expect(out.entryHash).toBe(computed.entryHash);
    // 02100002 + 01100001 + 12100024
    expect(computed.entryHash).toBe('0015300027');
  });

  it('pads to whole blocks of 10 with 9-filler and counts the blocks', () => {
    const f = readNacha(writeNachaFile(input(THREE)).text);
    // 1 + 1 + 3 + 1 + 1 = 7 records, 3 filler.
    expect(f.lines).toHaveLength(10);
    expect(f.fillerCount).toBe(3);
    expect(f.fileControl.blockCount).toBe(1);
    expect(f.lines.slice(7)).toEqual(Array(3).fill('9'.repeat(94)));

    // Exactly 10 records: 6 entries, no filler.
    const six = Array.from({ length: 6 }, (_, i) => ({ ...THREE[0]!, individualId: `p${i}` }));
    const g = readNacha(writeNachaFile(input(six)).text);
    expect(g.lines).toHaveLength(10);
    expect(g.fillerCount).toBe(0);
    expect(g.fileControl.blockCount).toBe(1);

    // 11 records: two blocks, 9 filler.
    const seven = [...six, { ...THREE[1]!, individualId: 'p6' }];
    const h = readNacha(writeNachaFile(input(seven)).text);
    expect(h.lines).toHaveLength(20);
    expect(h.fillerCount).toBe(9);
    expect(h.fileControl.blockCount).toBe(2);
    expect(h.fileControl.blockCount).toBe(h.computed.blocks);
  });

  it('separates records with \\n and ends the file with one', () => {
    const { text } = writeNachaFile(input(THREE));
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toContain('\r');
    expect(text.length).toBe(10 * 95);
  });

  it('keeps only the rightmost 10 digits of an entry hash that overflows', () => {
    const routing = withCheckDigit('32227162');
    expect(isValidAbaRouting(routing)).toBe(true);
    const many: NachaEntry[] = Array.from({ length: 320 }, (_, i) => ({
      routingNumber: routing,
      accountNumber: String(100000 + i),
      accountType: i % 2 === 0 ? 'checking' : 'savings',
      amountCents: 1000 + i,
      individualId: `po_${i}`,
      individualName: `Hunter ${i}`,
    }));
    const out = writeNachaFile(input(many));
    const f = readNacha(out.text);
    const fullSum = 32227162n * 320n; // 10,312,691,840: 11 digits
    expect(fullSum.toString()).toHaveLength(11);
    expect(f.computed.entryHash).toBe('0312691840');
    expect(f.batchControl.entryHash).toBe('0312691840');
    expect(f.fileControl.entryHash).toBe('0312691840');
    expect(out.entryHash).toBe('0312691840');
    expect(f.fileControl.entryAddendaCount).toBe(320);
    expect(f.fileControl.totalCreditCents).toBe(f.computed.totalCreditCents);
    // 324 records -> 33 blocks.
    expect(f.lines).toHaveLength(330);
    expect(f.fileControl.blockCount).toBe(33);
  });

  it('numbers trace numbers ODFI + 7-digit sequence, in order', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      ...THREE[i % 3]!,
      individualId: `p${i}`,
    }));
    const f = readNacha(writeNachaFile(input(many)).text);
    expect(f.entries.map((e) => e.traceNumber)).toEqual(
      many.map((_, i) => `02100002${String(i + 1).padStart(7, '0')}`),
    );
  });

  it('writes non-ASCII names as uppercase ASCII without breaking the 94-character width', () => {
    const entries: NachaEntry[] = [
      { ...THREE[0]!, individualName: 'Zoë Ünal' },
      { ...THREE[1]!, individualName: 'José 🚀 Ñúñez-Größe Çelik Łukasz' },
    ];
    const { text } = writeNachaFile(input(entries));
    expect(/^[\x20-\x7E\n]*$/.test(text)).toBe(true);
    const f = readNacha(text);
    expect(f.entries[0]!.individualName).toBe('ZOE UNAL'.padEnd(22));
    expect(f.entries[1]!.individualName).toMatch(/^JOSE\s+NUNEZ-GROSSE CEL/);
    expect(f.entries[1]!.individualName).toHaveLength(22);
  });

  it('rejects a name with nothing printable left', () => {
    expect(() => writeNachaFile(input([{ ...THREE[0]!, individualName: '李小龍' }]))).toThrow(
      NachaError,
    );
  });
});

describe('validation', () => {
  const bad = (patch: Partial<NachaEntry>) => () =>
    writeNachaFile(input([THREE[0]!, { ...THREE[1]!, ...patch }]));

  it('checks the ABA routing check digit', () => {
    expect(isValidAbaRouting('021000021')).toBe(true);
    expect(isValidAbaRouting('011000015')).toBe(true);
    expect(isValidAbaRouting('121000248')).toBe(true);
    expect(isValidAbaRouting('021000022')).toBe(false);
    expect(isValidAbaRouting('02100002')).toBe(false);
    expect(isValidAbaRouting('0210000210')).toBe(false);
    expect(isValidAbaRouting('02100002a')).toBe(false);
    expect(isValidAbaRouting('')).toBe(false);
  });

  it('rejects a routing number with a bad check digit or not 9 digits', () => {
    expect(bad({ routingNumber: '021000022' })).toThrow(NachaError);
    expect(bad({ routingNumber: '021000022' })).toThrow(/entry 2: routing/);
    expect(bad({ routingNumber: '02100002' })).toThrow(NachaError);
    expect(bad({ routingNumber: '021-000-021' })).toThrow(NachaError);
    expect(() =>
      writeNachaFile(input(THREE, { origin: { ...ORIGIN, immediateDestination: '021000022' } })),
    ).toThrow(NachaError);
  });

  it('rejects an account number that is not 1-17 digits', () => {
    expect(bad({ accountNumber: '' })).toThrow(NachaError);
    expect(bad({ accountNumber: '123456789012345678' })).toThrow(/account number/);
    expect(bad({ accountNumber: '1234-5678' })).toThrow(NachaError);
    expect(bad({ accountNumber: '12345678901234567' })).not.toThrow();
  });

  it('rejects zero, negative, fractional, unsafe and too-large amounts', () => {
    for (const amountCents of [
      0,
      -1,
      -500,
      1.5,
      Number.NaN,
      Infinity,
      2 ** 53,
      9_999_999_999 + 1,
    ]) {
      expect(bad({ amountCents }), String(amountCents)).toThrow(NachaError);
    }
    expect(bad({ amountCents: 1 })).not.toThrow();
    expect(bad({ amountCents: 9_999_999_999 })).not.toThrow();
  });

  it('rejects an empty file', () => {
    expect(() => writeNachaFile(input([]))).toThrow(NachaError);
  });

  it('rejects an individual id that would have to be cut', () => {
    expect(bad({ individualId: '0123456789abcdef' })).toThrow(/individual id/);
    expect(bad({ individualId: '0123456789abcde' })).not.toThrow();
  });

  it('rejects a bad file id modifier', () => {
    expect(() => writeNachaFile(input(THREE, { fileIdModifier: 'a' }))).toThrow(NachaError);
    expect(() => writeNachaFile(input(THREE, { fileIdModifier: 'AB' }))).toThrow(NachaError);
    expect(() => writeNachaFile(input(THREE, { fileIdModifier: '7' }))).not.toThrow();
  });
});

describe('dependencies', () => {
  it('does not use the nach2 package', () => {
    const require = createRequire(import.meta.url);
    expect(() => require.resolve('nach2')).toThrow();
    const root = path.resolve(import.meta.dirname, '../../../../..');
    for (const pkg of ['package.json', 'apps/api/package.json']) {
      const json = JSON.parse(fs.readFileSync(path.join(root, pkg), 'utf8')) as Record<
        string,
        Record<string, string> | undefined
      >;
      expect(json.dependencies?.nach2, pkg).toBeUndefined();
      expect(json.devDependencies?.nach2, pkg).toBeUndefined();
    }
    expect(fs.existsSync(path.join(root, 'node_modules/nach2'))).toBe(false);
  });
});

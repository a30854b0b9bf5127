/**
 * An independent NACHA file reader for tests, written from the published record layout (not
 * from the writer): it checks the framing (94-character records, blocking factor 10, filler of
 * 9s), reads each record by position and recomputes what the control records claim.
 */
export interface NachaRead {
  header: { destination: string; origin: string; created: string; modifier: string };
  batches: {
    serviceClass: string;
    companyName: string;
    companyId: string;
    secCode: string;
    description: string;
    effectiveDate: string;
    odfi: string;
    number: number;
    control: {
      count: number;
      entryHash: string;
      totalDebitCents: number;
      totalCreditCents: number;
    };
  }[];
  entries: {
    transactionCode: string;
    routingNumber: string;
    accountNumber: string;
    amountCents: number;
    individualId: string;
    individualName: string;
    traceNumber: string;
  }[];
  fileControl: {
    batchCount: number;
    blockCount: number;
    entryCount: number;
    entryHash: string;
    totalDebitCents: number;
    totalCreditCents: number;
  };
  /** The entry hash recomputed from the entries (rightmost 10 digits of the DFI ids' sum). */
  computedEntryHash: string;
}

const field = (line: string, from: number, to: number) => line.slice(from - 1, to);
const num = (line: string, from: number, to: number) => Number(field(line, from, to));

export function readNacha(text: string): NachaRead {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines.length % 10 !== 0) throw new Error(`${lines.length} records: not blocked by 10`);
  for (const [i, l] of lines.entries())
    if (l.length !== 94) throw new Error(`record ${i + 1} is ${l.length} characters, not 94`);
  const first = lines[0]!;
  if (first[0] !== '1' || field(first, 35, 37) !== '094' || field(first, 38, 39) !== '10')
    throw new Error('bad file header');
  const out: NachaRead = {
    header: {
      destination: field(first, 4, 13).trim(),
      origin: field(first, 14, 23),
      created: field(first, 24, 33),
      modifier: field(first, 34, 34),
    },
    batches: [],
    entries: [],
    fileControl: {
      batchCount: 0,
      blockCount: 0,
      entryCount: 0,
      entryHash: '',
      totalDebitCents: 0,
      totalCreditCents: 0,
    },
    computedEntryHash: '',
  };
  let hash = 0n;
  let sawControl = false;
  let batchEntries: NachaRead['entries'] = [];
  let current: Omit<NachaRead['batches'][number], 'control'> | null = null;
  for (const l of lines.slice(1)) {
    if (sawControl) {
      if (l !== '9'.repeat(94)) throw new Error('records after the file control must be all 9s');
      continue;
    }
    switch (l[0]) {
      case '5':
        current = {
          serviceClass: field(l, 2, 4),
          companyName: field(l, 5, 20).trim(),
          companyId: field(l, 41, 50),
          secCode: field(l, 51, 53),
          description: field(l, 54, 63).trim(),
          effectiveDate: field(l, 70, 75),
          odfi: field(l, 80, 87),
          number: num(l, 88, 94),
        };
        batchEntries = [];
        break;
      case '6': {
        const dfi = field(l, 4, 11);
        const routing = dfi + field(l, 12, 12);
        hash += BigInt(dfi);
        const e = {
          transactionCode: field(l, 2, 3),
          routingNumber: routing,
          accountNumber: field(l, 13, 29).trim(),
          amountCents: num(l, 30, 39),
          individualId: field(l, 40, 54).trim(),
          individualName: field(l, 55, 76).trim(),
          traceNumber: field(l, 80, 94),
        };
        batchEntries.push(e);
        out.entries.push(e);
        break;
      }
      case '8': {
        if (!current) throw new Error('batch control without a batch header');
        const control = {
          count: num(l, 5, 10),
          entryHash: field(l, 11, 20),
          totalDebitCents: num(l, 21, 32),
          totalCreditCents: num(l, 33, 44),
        };
        const credits = batchEntries.reduce((a, e) => a + e.amountCents, 0);
        if (control.count !== batchEntries.length) throw new Error('batch count differs');
        if (control.totalCreditCents !== credits) throw new Error('batch credit total differs');
        out.batches.push({ ...current, control });
        current = null;
        break;
      }
      case '9':
        out.fileControl = {
          batchCount: num(l, 2, 7),
          blockCount: num(l, 8, 13),
          entryCount: num(l, 14, 21),
          entryHash: field(l, 22, 31),
          totalDebitCents: num(l, 32, 43),
          totalCreditCents: num(l, 44, 55),
        };
        sawControl = true;
        break;
      default:
        throw new Error(`unknown record type ${l[0]}`);
    }
  }
  out.computedEntryHash = String(hash % 10_000_000_000n).padStart(10, '0');
  const fc = out.fileControl;
  if (fc.batchCount !== out.batches.length) throw new Error('file batch count differs');
  if (fc.blockCount !== lines.length / 10) throw new Error('block count differs');
  if (fc.entryCount !== out.entries.length) throw new Error('file entry count differs');
  if (fc.totalCreditCents !== out.entries.reduce((a, e) => a + e.amountCents, 0))
    throw new Error('file credit total differs');
  return out;
}

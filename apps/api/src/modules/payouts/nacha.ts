/**
 * NACHA PPD credit file writer for the weekly direct-deposit payout run: one file, one batch of
 * credits (service class 220), fixed 94-character records, blocked by 10. A pure function: the
 * caller stores or transmits the text.
 */

export type BankAccountType = 'checking' | 'savings';

export interface NachaEntry {
  /** 9-digit ABA routing number of the receiving bank (check digit included). */
  routingNumber: string;
  /** 1-17 digits. */
  accountNumber: string;
  accountType: BankAccountType;
  /** Positive whole cents, at most 9,999,999,999 ($99,999,999.99). */
  amountCents: number;
  /** Up to 15 characters, e.g. the payout id; longer is rejected rather than cut (it must stay unique). */
  individualId: string;
  /** Receiver's name; written as uppercase ASCII, truncated to 22. */
  individualName: string;
}

export interface NachaOrigin {
  /** 9-digit routing number of the bank the file is sent to. */
  immediateDestination: string;
  immediateDestinationName: string;
  /** 10 characters, e.g. '1' + the 9-digit company EIN (9 digits get a leading blank). */
  immediateOrigin: string;
  immediateOriginName: string;
  /** Up to 16. */
  companyName: string;
  /** Up to 10, e.g. '1' + EIN. */
  companyId: string;
  /** Up to 10, e.g. 'PAYOUT'; shown on the receiver's statement. */
  companyEntryDescription: string;
  /** 8-digit routing of the originating DFI (the first 8 digits of its routing number). */
  originatingDfi: string;
}

export interface NachaFileInput {
  origin: NachaOrigin;
  /** One of A-Z or 0-9; distinguishes files created on the same day. */
  fileIdModifier: string;
  /** File creation moment, written in UTC. */
  created: Date;
  /** Effective entry date, written as its UTC calendar date. */
  effectiveDate: Date;
  /** 1-9,999,999; 1 if left out. */
  batchNumber?: number;
  entries: NachaEntry[];
}

export interface NachaFile {
  text: string;
  /** The 10-digit entry hash of the batch (and the file). */
  entryHash: string;
  totalCreditCents: number;
  entryCount: number;
}

export class NachaError extends Error {
  override name = 'NachaError';
}

const RECORD_LENGTH = 94;
const BLOCKING_FACTOR = 10;
const SERVICE_CLASS_CREDITS = '220';
const MAX_AMOUNT_CENTS = 9_999_999_999;
const MAX_TOTAL_CENTS = 999_999_999_999;
const MAX_ENTRIES = 999_999;
const TRANSACTION_CODES: Record<BankAccountType, string> = { checking: '22', savings: '32' };

/** ABA routing number: 9 digits with 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isValidAbaRouting(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = d.reduce((acc, digit, i) => acc + digit * (weights[i] ?? 0), 0);
  return sum % 10 === 0;
}

/** Uppercase printable ASCII: accents come off via NFKD, anything else outside 0x20-0x7E goes. */
function ascii(value: string): string {
  return value
    .toUpperCase()
    .normalize('NFKD')
    .replace(/\s/g, ' ')
    .replace(/[^\x20-\x7E]/g, '');
}

/** Alphanumeric field: uppercase ASCII, left-justified, space-padded, truncated to `width`. */
function alpha(value: string, width: number): string {
  return ascii(value).trim().slice(0, width).padEnd(width, ' ');
}

/** Numeric field: right-justified, zero-padded; the value must already fit. */
function num(value: number | string, width: number): string {
  const s = String(value);
  if (!/^\d+$/.test(s) || s.length > width) {
    throw new NachaError(`${s} does not fit a ${width}-digit field`);
  }
  return s.padStart(width, '0');
}

function blanks(width: number): string {
  return ' '.repeat(width);
}

function yymmdd(date: Date): string {
  const yy = String(date.getUTCFullYear() % 100).padStart(2, '0');
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(date.getUTCDate()).padStart(2, '0');
  return `${yy}${mm}${dd}`;
}

function hhmm(date: Date): string {
  return (
    String(date.getUTCHours()).padStart(2, '0') + String(date.getUTCMinutes()).padStart(2, '0')
  );
}

function record(fields: string[]): string {
  const line = fields.join('');
  if (line.length !== RECORD_LENGTH) {
    throw new NachaError(`internal: record of ${line.length} characters, not ${RECORD_LENGTH}`);
  }
  return line;
}

function validDate(date: Date, what: string): void {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new NachaError(`${what} is not a valid date`);
  }
}

function validateOrigin(origin: NachaOrigin): { immediateOrigin: string } {
  if (!isValidAbaRouting(origin.immediateDestination)) {
    throw new NachaError('immediate destination must be a valid 9-digit ABA routing number');
  }
  if (!/^\d{8}$/.test(origin.originatingDfi)) {
    throw new NachaError('originating DFI identification must be 8 digits');
  }
  const immediateOrigin = /^\d{9}$/.test(origin.immediateOrigin)
    ? ` ${origin.immediateOrigin}`
    : origin.immediateOrigin;
  if (!/^[0-9A-Z ]{10}$/.test(immediateOrigin)) {
    throw new NachaError('immediate origin must be 10 characters (e.g. 1 followed by the EIN)');
  }
  if (!/^[0-9A-Za-z ]{1,10}$/.test(origin.companyId)) {
    throw new NachaError('company identification must be 1-10 letters or digits');
  }
  if (ascii(origin.companyName).trim() === '') throw new NachaError('company name is required');
  if (ascii(origin.companyEntryDescription).trim() === '') {
    throw new NachaError('company entry description is required');
  }
  return { immediateOrigin };
}

function validateEntry(entry: NachaEntry, index: number): void {
  const at = `entry ${index + 1}`;
  if (!isValidAbaRouting(entry.routingNumber)) {
    throw new NachaError(`${at}: routing number must be 9 digits with a valid ABA check digit`);
  }
  if (!/^\d{1,17}$/.test(entry.accountNumber)) {
    throw new NachaError(`${at}: account number must be 1-17 digits`);
  }
  if (!Object.hasOwn(TRANSACTION_CODES, entry.accountType)) {
    throw new NachaError(`${at}: account type must be checking or savings`);
  }
  const amount = entry.amountCents;
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_AMOUNT_CENTS) {
    throw new NachaError(`${at}: amount must be whole cents from 1 to ${MAX_AMOUNT_CENTS}`);
  }
  const id = ascii(entry.individualId).trim();
  if (id === '' || id.length > 15) {
    throw new NachaError(`${at}: individual id must be 1-15 characters`);
  }
  if (ascii(entry.individualName).trim() === '') {
    throw new NachaError(`${at}: individual name has no printable ASCII characters`);
  }
}

/** Writes a one-batch PPD credit file. Throws NachaError on input a bank would reject. */
export function writeNachaFile(input: NachaFileInput): NachaFile {
  const { origin, entries } = input;
  if (entries.length === 0) throw new NachaError('a NACHA file needs at least one entry');
  if (entries.length > MAX_ENTRIES) {
    throw new NachaError(`at most ${MAX_ENTRIES} entries fit one batch`);
  }
  if (!/^[A-Z0-9]$/.test(input.fileIdModifier)) {
    throw new NachaError('file id modifier must be one of A-Z or 0-9');
  }
  validDate(input.created, 'creation date');
  validDate(input.effectiveDate, 'effective date');
  const batchNumber = input.batchNumber ?? 1;
  if (!Number.isSafeInteger(batchNumber) || batchNumber < 1 || batchNumber > 9_999_999) {
    throw new NachaError('batch number must be 1-9999999');
  }
  const { immediateOrigin } = validateOrigin(origin);
  entries.forEach(validateEntry);

  const lines: string[] = [];

  // File Header Record (type 1).
  lines.push(
    record([
      '1',
      '01',
      ` ${origin.immediateDestination}`,
      immediateOrigin,
      yymmdd(input.created),
      hhmm(input.created),
      input.fileIdModifier,
      '094',
      num(BLOCKING_FACTOR, 2),
      '1',
      alpha(origin.immediateDestinationName, 23),
      alpha(origin.immediateOriginName, 23),
      blanks(8),
    ]),
  );

  // Company/Batch Header Record (type 5).
  lines.push(
    record([
      '5',
      SERVICE_CLASS_CREDITS,
      alpha(origin.companyName, 16),
      blanks(20),
      alpha(origin.companyId, 10),
      'PPD',
      alpha(origin.companyEntryDescription, 10),
      blanks(6),
      yymmdd(input.effectiveDate),
      blanks(3),
      '1',
      origin.originatingDfi,
      num(batchNumber, 7),
    ]),
  );

  // Entry Detail Records (type 6).
  let hashSum = 0;
  let totalCreditCents = 0;
  entries.forEach((entry, i) => {
    const dfi = entry.routingNumber.slice(0, 8);
    hashSum += Number(dfi);
    totalCreditCents += entry.amountCents;
    lines.push(
      record([
        '6',
        TRANSACTION_CODES[entry.accountType],
        dfi,
        entry.routingNumber.slice(8),
        entry.accountNumber.padEnd(17, ' '),
        num(entry.amountCents, 10),
        alpha(entry.individualId, 15),
        alpha(entry.individualName, 22),
        blanks(2),
        '0',
        origin.originatingDfi + num(i + 1, 7),
      ]),
    );
  });
  if (totalCreditCents > MAX_TOTAL_CENTS) {
    throw new NachaError(`total credits exceed ${MAX_TOTAL_CENTS} cents`);
  }
  // Rightmost 10 digits of the sum of the 8-digit receiving DFI ids (the sum stays a safe integer).
  const entryHash = num(hashSum % 10_000_000_000, 10);

  // Company/Batch Control Record (type 8).
  lines.push(
    record([
      '8',
      SERVICE_CLASS_CREDITS,
      num(entries.length, 6),
      entryHash,
      num(0, 12),
      num(totalCreditCents, 12),
      alpha(origin.companyId, 10),
      blanks(19),
      blanks(6),
      origin.originatingDfi,
      num(batchNumber, 7),
    ]),
  );

  // File Control Record (type 9); the block count includes the 9-filler records.
  const blockCount = Math.ceil((lines.length + 1) / BLOCKING_FACTOR);
  lines.push(
    record([
      '9',
      num(1, 6),
      num(blockCount, 6),
      num(entries.length, 8),
      entryHash,
      num(0, 12),
      num(totalCreditCents, 12),
      blanks(39),
    ]),
  );
  while (lines.length % BLOCKING_FACTOR !== 0) lines.push('9'.repeat(RECORD_LENGTH));

  return {
    text: lines.map((l) => `${l}\n`).join(''),
    entryHash,
    totalCreditCents,
    entryCount: entries.length,
  };
}

/**
 * Form 1099-NEC Copy B (For Recipient) as a one-page US-letter PDF, drawn with pdf-lib after the
 * IRS layout: the boxed form at the top of the page, the recipient instructions below it.
 * The recipient's TIN is only ever shown masked (***-**-1234), as the IRS allows on this copy.
 */
import type { Color, PDFFont, PDFPage } from 'pdf-lib';
import { lazyImport } from '../../lib/lazy-import';

/** pdf-lib (~3.4 MB of heap) loads with the first form, not at start-up (decision 0038). */
const loadPdfLib = lazyImport(() => import('pdf-lib'));

export interface Nec1099Input {
  year: number;
  payer: { name: string; street: string; cityStateZip: string; phone: string; tin: string };
  recipient: { name: string; street: string; cityStateZip: string; tinLastFour: string };
  /** E.g. the hunter's user id. */
  accountNumber: string;
  nonemployeeCompensationCents: number;
  federalTaxWithheldCents?: number;
}

/** The form revision this layout follows. */
const REVISION = 'January 2024';
const REVISION_SHORT = '1-2024';
const OMB_NUMBER = '1545-0116';

const COPY_B_NOTICE =
  'This is important tax information and is being furnished to the IRS. If you are required ' +
  'to file a return, a negligence penalty or other sanction may be imposed on you if this ' +
  'income is taxable and the IRS determines that it has not been reported.';

/** Lead-in (bold) and text of each paragraph of the recipient instructions. */
const INSTRUCTIONS: [string, string][] = [
  [
    "Recipient's taxpayer identification number (TIN).",
    'For your protection, this form may show only the last four digits of your TIN (social ' +
      'security number (SSN), individual taxpayer identification number (ITIN), adoption ' +
      'taxpayer identification number (ATIN), or employer identification number (EIN)). ' +
      'However, the payer has reported your complete TIN to the IRS.',
  ],
  [
    'Account number.',
    'May show an account or other unique number the payer assigned to distinguish your account.',
  ],
  [
    'Box 1.',
    'Shows nonemployee compensation. If the amount in this box is self-employment (SE) income, ' +
      'report it on Schedule C or F (Form 1040) if a sole proprietor, or on Form 1065 and ' +
      'Schedule K-1 (Form 1065) if a partnership, and the recipient/partner completes Schedule ' +
      'SE (Form 1040).',
  ],
  [
    'Note:',
    'If you are receiving payments on which no income, social security, and Medicare taxes ' +
      'are withheld, you should make estimated tax payments. See Form 1040-ES (or Form ' +
      '1040-ES (NR)). Individuals must report these amounts as explained in these box 1 ' +
      'instructions. Corporations, fiduciaries, and partnerships must report these amounts on ' +
      'the appropriate line of their tax returns.',
  ],
  [
    'Box 2.',
    'If checked, consumer products totaling $5,000 or more were sold to you for resale, on a ' +
      'buy-sell, a deposit-commission, or other basis. Generally, report any income from your ' +
      'sale of these products on Schedule C (Form 1040).',
  ],
  [
    'Box 3.',
    'Shows your total compensation of excess golden parachute payments subject to a 20% ' +
      'excise tax. See your tax return instructions for where to report.',
  ],
  [
    'Box 4.',
    'Shows backup withholding. A payer must backup withhold on certain payments if you did ' +
      'not give your TIN to the payer. See Form W-9, Request for Taxpayer Identification Number ' +
      'and Certification, for information on backup withholding. Include this amount on your ' +
      'income tax return as tax withheld.',
  ],
  ['Boxes 5-7.', 'State income tax withheld reporting boxes.'],
  [
    'Future developments.',
    'For the latest information about developments related to Form 1099-NEC and its ' +
      'instructions, such as legislation enacted after they were published, go to ' +
      'www.irs.gov/Form1099NEC.',
  ],
];

/** Letters NFKD leaves whole that still have a plain Latin look-alike. */
const FALLBACKS: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ø: 'O',
  ø: 'o',
};

/**
 * Text the standard fonts can encode (WinAnsi): characters it has are kept, others are
 * decomposed (NFKD) and kept if their parts are encodable, or else dropped. Never throws.
 */
export function toWinAnsi(value: string, charset: ReadonlySet<number>): string {
  let out = '';
  for (const ch of value.normalize('NFC').replace(/\s+/g, ' ')) {
    const cp = ch.codePointAt(0) ?? 0;
    if (charset.has(cp)) {
      out += ch;
      continue;
    }
    const parts = FALLBACKS[ch] ?? ch.normalize('NFKD');
    for (const p of parts) if (charset.has(p.codePointAt(0) ?? 0)) out += p;
  }
  return out.replace(/ {2,}/g, ' ');
}

/** 123456 -> '1,234.56'. */
export function formatCents(cents: number): string {
  const dollars = Math.floor(cents / 100).toString();
  const rest = (cents % 100).toString().padStart(2, '0');
  return `${dollars.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${rest}`;
}

function validate(input: Nec1099Input): void {
  if (!Number.isInteger(input.year) || input.year < 2020 || input.year > 2999) {
    throw new RangeError('year must be a calendar year from 2020 (the first 1099-NEC year)');
  }
  if (!/^\d{4}$/.test(input.recipient.tinLastFour)) {
    throw new RangeError("recipient's TIN: pass exactly the last four digits");
  }
  const amounts = [input.nonemployeeCompensationCents, input.federalTaxWithheldCents ?? 0];
  for (const cents of amounts) {
    if (!Number.isSafeInteger(cents) || cents < 0) {
      throw new RangeError('amounts must be whole, non-negative cents');
    }
  }
}

// Page geometry in points (US letter, origin bottom-left).
const PAGE_W = 612;
const PAGE_H = 792;
const X0 = 36; // left edge of the form
const X1 = 288; // payer/recipient column | box column
const X2 = 432; // box column | title and Copy B column
const X3 = 576; // right edge
const XT = 162; // PAYER'S TIN | RECIPIENT'S TIN
const Y_TOP = 744;
const Y_TIN = 648; // top of the TIN row and box 1
const Y_NAME = 618; // RECIPIENT'S name, box 2
const Y_STREET = 582; // Street address, box 3
const Y_CITY = 552; // City or town, box 4
const Y_ACCT = 522; // Account number, boxes 5-7
const Y_STATE_MID = 502; // the line between the two state rows
const Y_BOTTOM = 482;
const LABEL_SIZE = 6;
const VALUE_SIZE = 10;
const PAD = 3;

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  charset: ReadonlySet<number>;
  black: Color;
}

class Drawer {
  constructor(
    private readonly page: PDFPage,
    private readonly fonts: Fonts,
  ) {}

  clean(value: string): string {
    return toWinAnsi(value, this.fonts.charset);
  }

  line(x1: number, y1: number, x2: number, y2: number, thickness = 0.5): void {
    this.page.drawLine({
      start: { x: x1, y: y1 },
      end: { x: x2, y: y2 },
      thickness,
      color: this.fonts.black,
    });
  }

  checkbox(x: number, y: number, size = 7): void {
    this.page.drawRectangle({
      x,
      y,
      width: size,
      height: size,
      borderWidth: 0.5,
      borderColor: this.fonts.black,
    });
  }

  width(text: string, size: number, bold = false): number {
    return (bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(this.clean(text), size);
  }

  text(text: string, x: number, y: number, size: number, bold = false): void {
    const clean = this.clean(text);
    if (clean.trim() === '') return;
    this.page.drawText(clean, {
      x,
      y,
      size,
      font: bold ? this.fonts.bold : this.fonts.regular,
      color: this.fonts.black,
    });
  }

  textRight(text: string, xRight: number, y: number, size: number, bold = false): void {
    this.text(text, xRight - this.width(text, size, bold), y, size, bold);
  }

  /** The value size (10pt) or smaller, down to 6pt, to fit `maxWidth`. */
  fitSize(text: string, maxWidth: number, bold = false): number {
    let size = VALUE_SIZE;
    while (size > 6 && this.width(text, size, bold) > maxWidth) size -= 0.5;
    return size;
  }

  /** A value in a box: 10pt, shrunk down to 6pt if it is too wide, then cut. */
  value(text: string, x: number, y: number, maxWidth: number, bold = false): void {
    let clean = this.clean(text).trim();
    const size = this.fitSize(clean, maxWidth, bold);
    while (clean.length > 0 && this.width(clean, size, bold) > maxWidth) clean = clean.slice(0, -1);
    this.text(clean, x, y, size, bold);
  }

  /** Splits text into lines no wider than `maxWidth`. */
  wrap(text: string, size: number, maxWidth: number, bold = false): string[] {
    const lines: string[] = [];
    let current = '';
    for (const word of this.clean(text).trim().split(' ')) {
      const next = current === '' ? word : `${current} ${word}`;
      if (current !== '' && this.width(next, size, bold) > maxWidth) {
        lines.push(current);
        current = word;
      } else {
        current = next;
      }
    }
    if (current !== '') lines.push(current);
    return lines;
  }

  /**
   * A box label in the box's top-left corner: a bold box number (if any) then the caption,
   * wrapped to the box. Returns the baseline of the last line.
   */
  label(caption: string, x: number, yTop: number, boxWidth: number, boxNumber?: string): number {
    const lead = boxNumber ? `${boxNumber} ` : '';
    const leadWidth = lead ? this.width(lead, LABEL_SIZE + 0.5, true) + 1 : 0;
    const lines = this.wrap(caption, LABEL_SIZE, boxWidth - 2 * PAD - leadWidth);
    let y = yTop - LABEL_SIZE - 1.5;
    if (lead) this.text(lead, x + PAD, y, LABEL_SIZE + 0.5, true);
    for (const l of lines) {
      this.text(l, x + PAD + leadWidth, y, LABEL_SIZE);
      y -= LABEL_SIZE + 1;
    }
    return y + LABEL_SIZE + 1;
  }

  /**
   * A paragraph with a bold lead-in, wrapped word by word; each line is drawn as runs of one
   * font (with real spaces, so text extraction keeps the words apart). Returns the y below it.
   */
  paragraph(lead: string, body: string, x: number, y: number, maxWidth: number, size: number) {
    const words = [
      ...this.clean(lead)
        .trim()
        .split(' ')
        .map((w) => ({ w, bold: true })),
      ...this.clean(body)
        .trim()
        .split(' ')
        .map((w) => ({ w, bold: false })),
    ];
    const lines: { w: string; bold: boolean }[][] = [[]];
    let lineWidth = 0;
    for (const word of words) {
      const ww = this.width(`${word.w} `, size, word.bold);
      const current = lines[lines.length - 1] ?? [];
      if (current.length > 0 && lineWidth + this.width(word.w, size, word.bold) > maxWidth) {
        lines.push([word]);
        lineWidth = ww;
      } else {
        current.push(word);
        lineWidth += ww;
      }
    }
    const leading = size + 2.5;
    for (const line of lines) {
      let cx = x;
      let i = 0;
      while (i < line.length) {
        const bold = line[i]?.bold ?? false;
        let run = '';
        while (i < line.length && line[i]?.bold === bold) run += `${line[i++]?.w ?? ''} `;
        this.text(run, cx, y, size, bold);
        cx += this.width(run, size, bold);
      }
      y -= leading;
    }
    return y;
  }
}

function drawForm(d: Drawer, input: Nec1099Input): void {
  const { payer, recipient } = input;

  // CORRECTED checkbox above the form (left empty: this is an original form).
  const corrected = 'CORRECTED (if checked)';
  const cw = 9 + d.width(corrected, 7);
  d.checkbox((PAGE_W - cw) / 2, Y_TOP + 6, 7);
  d.text(corrected, (PAGE_W - cw) / 2 + 10, Y_TOP + 7, 7);

  // Grid: outer frame, column lines, row lines.
  d.line(X0, Y_TOP, X3, Y_TOP, 0.75);
  d.line(X0, Y_BOTTOM, X3, Y_BOTTOM, 0.75);
  d.line(X0, Y_TOP, X0, Y_BOTTOM, 0.75);
  d.line(X3, Y_TOP, X3, Y_BOTTOM, 0.75);
  d.line(X1, Y_TOP, X1, Y_BOTTOM);
  d.line(X2, Y_TOP, X2, Y_ACCT);
  d.line(X0, Y_TIN, X3, Y_TIN);
  for (const y of [Y_NAME, Y_STREET, Y_CITY]) d.line(X0, y, X2, y);
  d.line(X0, Y_ACCT, X3, Y_ACCT);
  d.line(XT, Y_TIN, XT, Y_NAME);
  const stateW = (X3 - X1) / 3;
  d.line(X1 + stateW, Y_ACCT, X1 + stateW, Y_BOTTOM);
  d.line(X1 + 2 * stateW, Y_ACCT, X1 + 2 * stateW, Y_BOTTOM);
  d.line(X1, Y_STATE_MID, X3, Y_STATE_MID, 0.25);

  // Payer block.
  const payerLabelY = d.label(
    "PAYER'S name, street address, city or town, state or province, country, ZIP or foreign " +
      'postal code, and telephone no.',
    X0,
    Y_TOP,
    X1 - X0,
  );
  const payerLines = [payer.name, payer.street, payer.cityStateZip, payer.phone];
  payerLines.forEach((l, i) => {
    d.value(l, X0 + PAD + 2, payerLabelY - 14 - i * 12.5, X1 - X0 - 2 * PAD - 4);
  });

  // TINs; the recipient's is masked.
  d.label("PAYER'S TIN", X0, Y_TIN, XT - X0);
  d.value(payer.tin, X0 + PAD + 2, Y_NAME + 7, XT - X0 - 2 * PAD - 4);
  d.label("RECIPIENT'S TIN", XT, Y_TIN, X1 - XT);
  d.value(`***-**-${recipient.tinLastFour}`, XT + PAD + 2, Y_NAME + 7, X1 - XT - 2 * PAD - 4);

  // Recipient rows.
  const rows: [string, string, number, number][] = [
    ["RECIPIENT'S name", recipient.name, Y_NAME, Y_STREET],
    ['Street address (including apt. no.)', recipient.street, Y_STREET, Y_CITY],
    [
      'City or town, state or province, country, and ZIP or foreign postal code',
      recipient.cityStateZip,
      Y_CITY,
      Y_ACCT,
    ],
    ['Account number (see instructions)', input.accountNumber, Y_ACCT, Y_BOTTOM],
  ];
  for (const [caption, value, top, bottom] of rows) {
    d.label(caption, X0, top, X1 - X0);
    d.value(value, X0 + PAD + 2, bottom + 7, X1 - X0 - 2 * PAD - 4);
  }

  // Title block: OMB number, form number and revision, calendar year.
  const midW = X2 - X1;
  const yOmb = Y_TOP - 22;
  const yYear = Y_TIN + 34;
  d.line(X1, yOmb, X2, yOmb);
  d.line(X1, yYear, X2, yYear);
  d.text(`OMB No. ${OMB_NUMBER}`, X1 + PAD + 2, yOmb + 8, 7);
  const formNo = '1099-NEC';
  const formW1 = d.width('Form ', 7) + 1;
  const formX = X1 + (midW - formW1 - d.width(formNo, 17, true)) / 2;
  d.text('Form ', formX, yYear + 24, 7);
  d.text(formNo, formX + formW1, yYear + 24, 17, true);
  const rev = `(Rev. ${REVISION})`;
  d.text(rev, X1 + (midW - d.width(rev, 7)) / 2, yYear + 11, 7);
  d.text('For calendar year', X1 + PAD + 2, yYear - 10, 7);
  const year = String(input.year);
  d.text(year, X1 + (midW - d.width(year, 14, true)) / 2, yYear - 27, 14, true);

  // Form name, top right.
  d.textRight('Nonemployee', X3 - 8, Y_TOP - 40, 15, true);
  d.textRight('Compensation', X3 - 8, Y_TOP - 58, 15, true);

  // Boxes 1-4.
  const boxW = X2 - X1;
  const money = (cents: number | undefined, bottom: number) => {
    d.text('$', X1 + PAD + 1, bottom + 6, 9);
    if (cents === undefined) return;
    const amount = formatCents(cents);
    const size = d.fitSize(amount, boxW - 2 * PAD - 18);
    d.textRight(amount, X2 - PAD - 4, bottom + 6, size);
  };
  d.label('Nonemployee compensation', X1, Y_TIN, boxW, '1');
  money(input.nonemployeeCompensationCents, Y_NAME);

  d.label(
    'Payer made direct sales totaling $5,000 or more of consumer products to recipient for resale',
    X1,
    Y_NAME,
    boxW - 14,
    '2',
  );
  d.checkbox(X2 - PAD - 9, Y_STREET + (Y_NAME - Y_STREET) / 2 - 7, 8);

  d.label('Excess golden parachute payments', X1, Y_STREET, boxW, '3');
  money(undefined, Y_CITY);

  d.label('Federal income tax withheld', X1, Y_CITY, boxW, '4');
  money(input.federalTaxWithheldCents, Y_ACCT);

  // Boxes 5-7, two state rows each.
  const stateBoxes: [string, string, boolean][] = [
    ['5', 'State tax withheld', true],
    ['6', "State/Payer's state no.", false],
    ['7', 'State income', true],
  ];
  stateBoxes.forEach(([n, caption, dollars], i) => {
    const x = X1 + i * stateW;
    d.label(caption, x, Y_ACCT, stateW, n);
    if (dollars) {
      d.text('$', x + PAD + 1, Y_STATE_MID + 3, 8);
      d.text('$', x + PAD + 1, Y_BOTTOM + 5, 8);
    }
  });

  // Copy B column.
  d.textRight('Copy B', X3 - 8, Y_TIN - 16, 11, true);
  d.textRight('For Recipient', X3 - 8, Y_TIN - 27, 8, true);
  const noticeW = X3 - X2 - 2 * PAD - 6;
  let ny = Y_TIN - 42;
  for (const l of d.wrap(COPY_B_NOTICE, 6.5, noticeW)) {
    d.text(l, X2 + PAD + 3, ny, 6.5);
    ny -= 8;
  }

  // Footer line under the form.
  const fy = Y_BOTTOM - 10;
  const formW = d.width('Form ', 7) + 1;
  d.text('Form ', X0, fy, 7);
  d.text('1099-NEC ', X0 + formW, fy, 8.5, true);
  d.text(`(Rev. ${REVISION_SHORT})`, X0 + formW + d.width('1099-NEC ', 8.5, true) + 1, fy, 7);
  d.text('(keep for your records)', 172, fy, 7);
  d.text('www.irs.gov/Form1099NEC', 262, fy, 7);
  d.textRight('Department of the Treasury - Internal Revenue Service', X3, fy, 7);
}

function drawInstructions(d: Drawer): void {
  let y = Y_BOTTOM - 44;
  d.text('Instructions for Recipient', X0, y, 10, true);
  y -= 16;
  for (const [lead, body] of INSTRUCTIONS) {
    y = d.paragraph(lead, body, X0, y, X3 - X0, 8) - 3;
  }
}

/** Renders Form 1099-NEC Copy B for one recipient and year. */
export async function render1099Nec(input: Nec1099Input): Promise<Uint8Array> {
  validate(input);
  const { PDFDocument, StandardFonts, rgb } = await loadPdfLib();
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const charset = new Set(regular.getCharacterSet());
  const page = doc.addPage([PAGE_W, PAGE_H]);
  const d = new Drawer(page, { regular, bold, charset, black: rgb(0, 0, 0) });

  drawForm(d, input);
  drawInstructions(d);

  doc.setTitle(`Form 1099-NEC ${input.year}`);
  doc.setSubject('Nonemployee Compensation - Copy B For Recipient');
  doc.setCreator('BountyHunt');
  return doc.save();
}

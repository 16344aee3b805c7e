/**
 * Amount fields of the probate calculator (SPEC §5 Calculator: "amount inputs auto-format with
 * thousands separators"). Pure functions, so the caret rules are unit-tested without a browser.
 *
 * An amount is digits with an optional decimal point and at most two decimals (the payload is
 * money with 2 places, SPEC §3); anything else typed or pasted is dropped. The integer part is capped
 * at 10 digits, the most a stored amount holds (12 digits, 2 of them decimals).
 */
import { parseAmount } from '../../shared/probate.ts';

export const MAX_INTEGER_DIGITS = 10;
const MAX_DECIMALS = 2;

export interface AmountEdit {
  value: string;
  /** Where the caret goes in `value`. */
  caret: number;
}

/** A character that carries meaning (a digit or the decimal point), as opposed to a separator. */
const isSignificant = (ch: string) => /[0-9.]/.test(ch);

/**
 * Formats what the field holds after an edit, keeping the caret after the same digit it followed.
 * `raw` is the field's text as the browser left it, `caret` the browser's caret in it.
 */
export function formatAmountInput(raw: string, caret: number = raw.length): AmountEdit {
  // Keep digits and the first decimal point, remembering which kept characters sat before the caret.
  const kept: { ch: string; beforeCaret: boolean }[] = [];
  let seenPoint = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (!isSignificant(ch)) continue;
    if (ch === '.') {
      if (seenPoint) continue;
      seenPoint = true;
    }
    kept.push({ ch, beforeCaret: i < caret });
  }

  const point = kept.findIndex((k) => k.ch === '.');
  let integer = point === -1 ? kept : kept.slice(0, point);
  const fraction = point === -1 ? [] : kept.slice(point + 1, point + 1 + MAX_DECIMALS);

  // No leading zeros ("007" -> "7"), but a lone "0" stays, and ".5" becomes "0.5".
  while (integer.length > 1 && integer[0]!.ch === '0') integer = integer.slice(1);
  if (point !== -1 && integer.length === 0) integer = [{ ch: '0', beforeCaret: true }];
  integer = integer.slice(0, MAX_INTEGER_DIGITS);

  const significant = [...integer, ...(point === -1 ? [] : [{ ch: '.', beforeCaret: kept[point]!.beforeCaret }]), ...fraction];
  const caretAfter = significant.filter((k) => k.beforeCaret).length;

  const value = groupThousands(integer.map((k) => k.ch).join('')) + (point === -1 ? '' : '.' + fraction.map((k) => k.ch).join(''));
  return { value, caret: caretIndex(value, caretAfter) };
}

/**
 * Backspace or Delete next to a separator would remove only the comma, which formatting puts back:
 * the key would seem dead. Remove the digit beyond the comma instead.
 * `previous` is the text before the edit, `raw` and `caret` as the browser left them.
 */
export function applyAmountEdit(previous: string, raw: string, caret: number, inputType?: string): AmountEdit {
  const removedOnlySeparator =
    raw.length === previous.length - 1 &&
    strip(raw) === strip(previous) &&
    previous[caret] === ',' &&
    (inputType === 'deleteContentBackward' || inputType === 'deleteContentForward');
  if (removedOnlySeparator) {
    if (inputType === 'deleteContentBackward' && caret > 0) {
      return formatAmountInput(raw.slice(0, caret - 1) + raw.slice(caret), caret - 1);
    }
    if (inputType === 'deleteContentForward' && caret < raw.length) {
      return formatAmountInput(raw.slice(0, caret) + raw.slice(caret + 1), caret);
    }
  }
  return formatAmountInput(raw, caret);
}

/** The number an amount field holds; NaN when it holds none (a trailing "." is allowed while typing). */
export function amountValue(text: string): number {
  return parseAmount(text.trim().replace(/\.$/, ''));
}

/** "1234567" -> "1,234,567". */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Money as the API takes it: "1234.50"; whole dollars "17500.00". */
export function toMoneyString(value: number): string {
  return value.toFixed(2);
}

const strip = (text: string) => text.replace(/[^0-9.]/g, '');

/** The index just after the n-th significant character of `value` (0 when n is 0). */
function caretIndex(value: string, n: number): number {
  if (n <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < value.length; i++) {
    if (isSignificant(value[i]!)) seen++;
    if (seen === n) return i + 1;
  }
  return value.length;
}

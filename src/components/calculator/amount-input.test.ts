import { describe, expect, it } from 'vitest';
import { amountValue, applyAmountEdit, formatAmountInput, groupThousands, MAX_INTEGER_DIGITS, toMoneyString } from './amount-input.ts';

/** "12|34" notation: the bar is the caret. */
const at = (text: string) => ({ raw: text.replace('|', ''), caret: text.indexOf('|') });
const show = ({ value, caret }: { value: string; caret: number }) => value.slice(0, caret) + '|' + value.slice(caret);
const format = (text: string) => {
  const { raw, caret } = at(text);
  return show(formatAmountInput(raw, caret));
};
const edit = (previous: string, text: string, inputType: string) => {
  const { raw, caret } = at(text);
  return show(applyAmountEdit(previous, raw, caret, inputType));
};

describe('formatAmountInput', () => {
  it('groups thousands while typing at the end', () => {
    expect(format('1|')).toBe('1|');
    expect(format('1234|')).toBe('1,234|');
    expect(format('1,2345|')).toBe('12,345|');
    expect(format('1,000,0000|')).toBe('10,000,000|');
  });

  it('keeps the caret after the same digit when typing in the middle or at the start', () => {
    expect(format('1,29|34')).toBe('12,9|34');
    expect(format('5|1,234')).toBe('5|1,234'); // "5" typed before "1,234"
    expect(format('1|00,000')).toBe('1|00,000');
    expect(format('|1,234')).toBe('|1,234');
  });

  it('regroups after a deletion in the middle', () => {
    expect(format('1,|34')).toBe('1|34'); // "1,234" with the 2 deleted
    expect(format('12,3|5,678')).toBe('1,23|5,678');
  });

  it('drops letters, signs and spaces, whatever is typed or pasted', () => {
    expect(format('abc|')).toBe('|');
    expect(format('12a|')).toBe('12|');
    expect(format('-5|')).toBe('5|');
    expect(format('$1 250 000|')).toBe('1,250,000|');
    expect(format('1,250,000|')).toBe('1,250,000|');
  });

  it('keeps one decimal point and at most two decimals', () => {
    expect(format('1234.|')).toBe('1,234.|');
    expect(format('1234.5|')).toBe('1,234.5|');
    expect(format('1234.567|')).toBe('1,234.56|');
    expect(format('1.2.3|')).toBe('1.23|');
    expect(format('.5|')).toBe('0.5|');
  });

  it('removes leading zeros but keeps a lone zero', () => {
    expect(format('0|')).toBe('0|');
    expect(format('007|')).toBe('7|');
    expect(format('05|')).toBe('5|');
    expect(format('0.5|')).toBe('0.5|');
  });

  it(`caps the integer part at ${MAX_INTEGER_DIGITS} digits`, () => {
    expect(format('12345678901|')).toBe('1,234,567,890|');
  });

  it('puts the caret at the end when none is given', () => {
    expect(formatAmountInput('1234567')).toEqual({ value: '1,234,567', caret: 9 });
    expect(formatAmountInput('')).toEqual({ value: '', caret: 0 });
  });
});

describe('applyAmountEdit', () => {
  it('Backspace just after a separator removes the digit before it', () => {
    // "1,234" with the caret after the comma; the browser removed the comma only.
    expect(edit('1,234', '1|234', 'deleteContentBackward')).toBe('|234');
    expect(edit('1,234,567', '1,234|567', 'deleteContentBackward')).toBe('123|,567');
  });

  it('Delete just before a separator removes the digit after it', () => {
    expect(edit('1,234', '1|234', 'deleteContentForward')).toBe('1|34');
  });

  it('an ordinary edit is formatted as usual', () => {
    expect(edit('1,234', '1,23|', 'deleteContentBackward')).toBe('123|');
    expect(edit('123', '1234|', 'insertText')).toBe('1,234|');
    expect(edit('', '1000000|', 'insertFromPaste')).toBe('1,000,000|');
  });
});

describe('amountValue', () => {
  it('reads the number of a formatted field', () => {
    expect(amountValue('1,000,000')).toBe(1_000_000);
    expect(amountValue('1,234.5')).toBe(1_234.5);
    expect(amountValue('1,234.')).toBe(1_234);
    expect(amountValue('0')).toBe(0);
  });

  it('is NaN for an empty or meaningless field', () => {
    for (const text of ['', ' ', '.', 'abc', ',']) expect(amountValue(text), JSON.stringify(text)).toBeNaN();
  });
});

describe('groupThousands and toMoneyString', () => {
  it('formats digits and money strings', () => {
    expect(groupThousands('1234567890')).toBe('1,234,567,890');
    expect(groupThousands('999')).toBe('999');
    expect(toMoneyString(17_500)).toBe('17500.00');
    expect(toMoneyString(1_234.5)).toBe('1234.50');
    expect(toMoneyString(0)).toBe('0.00');
    expect(toMoneyString(9_999_999_999.99)).toBe('9999999999.99');
  });
});

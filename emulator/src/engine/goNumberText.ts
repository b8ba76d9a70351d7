// Numbers as Terraform prints them. Terraform's numbers are Go big.Float values, printed with Go's decimal
// conversion (big.Float.Text / Format); this is that conversion on the shortest decimal digits of a JavaScript
// number, which are the digits the configuration wrote for any literal a double holds exactly enough.
// Rounding is decided on those digits. Where they end exactly on a half (2.5 to 0 decimals), Go rounds the exact
// binary value half to even; that is only known here when the value is a binary fraction (2.5, 0.125); for others
// (0.15 is not one) the answer depends on bits a double does not have, so the conversion says it cannot tell.

/** value = 0.digits × 10^point, digits without trailing zeros; zero has no digits and point 0 (Go's `decimal`). */
export interface Decimal {
  negative: boolean;
  digits: string;
  point: number;
}

export function decimalOf(value: number): Decimal | undefined {
  if (!Number.isFinite(value)) return undefined;
  if (value === 0) return { negative: false, digits: '', point: 0 };
  const [mantissa, exponent] = Math.abs(value).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '').replace(/0+$/, '');
  return { negative: value < 0, digits, point: Number(exponent) + 1 };
}

/** The decimal rounded to `keep` digits; undefined when it sits exactly on a half that Go's exact value decides. */
export function roundDecimal(decimal: Decimal, keep: number): Decimal | undefined {
  const { digits, point } = decimal;
  if (keep >= digits.length) return decimal;
  if (keep < 0) return { ...decimal, digits: '', point: 0 };
  const rest = digits.slice(keep);
  let kept = digits.slice(0, keep);
  let up = rest[0]! > '5' || (rest[0] === '5' && rest.length > 1);
  if (rest === '5') {
    if (!isBinaryFraction(decimal)) return undefined;
    up = kept !== '' && Number(kept[kept.length - 1]) % 2 === 1;
  }
  let newPoint = point;
  if (up) {
    const incremented = (BigInt(kept || '0') + 1n).toString();
    if (incremented.length > kept.length) newPoint += 1;
    kept = incremented.padStart(keep, '0');
  }
  kept = kept.replace(/0+$/, '');
  return kept === '' ? { ...decimal, digits: '', point: 0 } : { ...decimal, digits: kept, point: newPoint };
}

/** Whether the decimal is exactly m / 2^k, so a double and Go's 512-bit float both hold it exactly. */
function isBinaryFraction({ digits, point }: Decimal): boolean {
  const scale = digits.length - point;
  return scale <= 0 || BigInt(digits) % 5n ** BigInt(scale) === 0n;
}

/** `%f` with `decimals` digits after the point (Go's fmtF), without the sign. */
export function fixedDigits({ digits, point }: Decimal, decimals: number): string {
  const whole = point > 0 ? digits.slice(0, point).padEnd(point, '0') : '0';
  if (decimals <= 0) return whole;
  let fraction = '';
  for (let i = 0; i < decimals; i++) {
    const at = point + i;
    fraction += at >= 0 && at < digits.length ? digits[at] : '0';
  }
  return `${whole}.${fraction}`;
}

/** `%e` with `decimals` digits after the point (Go's fmtE), without the sign. */
export function exponentDigits({ digits, point }: Decimal, decimals: number, letter: 'e' | 'E'): string {
  const first = digits[0] ?? '0';
  const rest = decimals > 0 ? `.${digits.slice(1, 1 + decimals).padEnd(decimals, '0')}` : '';
  const exponent = digits === '' ? 0 : point - 1;
  return `${first}${rest}${letter}${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

const sign = (decimal: Decimal) => (decimal.negative ? '-' : '');

/** big.Float.Text('f', -1): every digit, never an exponent (how Terraform turns a number into a string). */
export function numberText(value: number): string | undefined {
  const decimal = decimalOf(value);
  return decimal && `${sign(decimal)}${fixedDigits(decimal, Math.max(decimal.digits.length - decimal.point, 0))}`;
}

/** big.Float.Text('f'|'e'|'E'|'g'|'G', precision), precision -1 for the shortest; undefined when it cannot tell. */
export function formatFloat(value: number, verb: 'f' | 'e' | 'E' | 'g' | 'G', precision: number): string | undefined {
  const exact = decimalOf(value);
  if (!exact) return undefined;
  const shortest = precision < 0;
  if (verb === 'f') {
    const decimals = shortest ? Math.max(exact.digits.length - exact.point, 0) : precision;
    const rounded = shortest ? exact : roundDecimal(exact, exact.point + precision);
    return rounded && `${sign(rounded)}${fixedDigits(rounded, decimals)}`;
  }
  if (verb === 'e' || verb === 'E') {
    const rounded = shortest ? exact : roundDecimal(exact, precision + 1);
    return rounded && `${sign(rounded)}${exponentDigits(rounded, shortest ? rounded.digits.length - 1 : precision, verb)}`;
  }
  // %g: Go's ftoa, with its choice between the %e and %f forms.
  let digitsWanted = shortest ? exact.digits.length : Math.max(precision, 1);
  const rounded = shortest ? exact : roundDecimal(exact, digitsWanted);
  if (!rounded) return undefined;
  if (shortest) digitsWanted = rounded.digits.length;
  let eprec = digitsWanted;
  if (eprec > rounded.digits.length && rounded.digits.length >= rounded.point) eprec = rounded.digits.length;
  if (shortest) eprec = 6;
  const exponent = rounded.point - 1;
  if (exponent < -4 || exponent >= eprec) {
    const kept = Math.min(digitsWanted, rounded.digits.length);
    return `${sign(rounded)}${exponentDigits(rounded, kept - 1, verb === 'g' ? 'e' : 'E')}`;
  }
  const kept = digitsWanted > rounded.point ? rounded.digits.length : digitsWanted;
  return `${sign(rounded)}${fixedDigits(rounded, Math.max(kept - rounded.point, 0))}`;
}

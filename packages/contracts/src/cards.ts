/**
 * Whether a card number's digits end in the right check digit (Luhn): a typo almost always breaks
 * it. The card form says so before sending; the sandbox provider refuses the same numbers.
 */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

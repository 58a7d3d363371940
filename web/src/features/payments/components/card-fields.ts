import { luhnValid } from '@tv-shop/contracts';
/**
 * The sandbox card form's fields: formatted as typed (the number in groups of four, the expiry
 * with its slash) and checked in words. The server (SandboxConfirmBody) checks them again.
 */

/** "4242424242424242" -> "4242 4242 4242 4242"; anything but digits is dropped, at most 19 digits. */
export function formatCardNumber(value: string | undefined): string {
  const digits = (value ?? '').replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * "1230", "12/30" and "12 / 30" -> "12/30"; "12/2030" stays a four-digit year. The slash comes
 * with the third digit, so deleting back past it never puts it back.
 */
export function formatExpiry(value: string | undefined): string {
  const digits = (value ?? '').replace(/\D/g, '').slice(0, 6);
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** The month and full year of an expiry as typed or formatted, or null when it is not MM/YY. */
export function parseExpiry(value: string): { exp_month: number; exp_year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const year = match[2]!;
  return { exp_month: Number(match[1]), exp_year: year.length === 2 ? 2000 + Number(year) : Number(year) };
}

export function cardNumberProblem(value: string): string | null {
  const digits = value.replace(/[\s-]/g, '');
  if (!digits) return 'Please enter the card number';
  if (!/^\d+$/.test(digits)) return 'A card number has only digits';
  if (digits.length < 12) return 'The card number is too short: it has 12 to 19 digits';
  if (!luhnValid(digits)) return 'This card number is not right: please check it for a typo';
  return null;
}

export function expiryProblem(value: string, now = new Date()): string | null {
  if (!value.trim()) return 'Please enter the expiry date';
  const expiry = parseExpiry(value);
  if (!expiry) return 'Enter the expiry as month and year, for example 12/30';
  if (expiry.exp_month < 1 || expiry.exp_month > 12) return 'The month must be between 01 and 12';
  const thisMonth = now.getFullYear() * 12 + now.getMonth();
  const cardMonth = expiry.exp_year * 12 + expiry.exp_month - 1;
  if (cardMonth < thisMonth) return 'This card has expired';
  if (expiry.exp_year > now.getFullYear() + 30) return 'Please check the year: it is too far ahead';
  return null;
}

export function cvcProblem(value: string): string | null {
  if (!value.trim()) return 'Please enter the CVC';
  if (!/^\d{3,4}$/.test(value.trim())) return 'The CVC is the 3 or 4 digits on the back of the card';
  return null;
}

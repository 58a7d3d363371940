import type { Problem } from '@tv-shop/contracts';

/** How the server's problem+json answers are said to the user: in sentences, fields by their labels. */

/** What the spec's field names are called on the forms, for messages that name a field. */
const FIELD_LABELS: Record<string, string> = {
  porduct_name: 'Product name',
  productImage: 'Photo',
  productImages: 'Photos',
  productThumbnails: 'Photo thumbnails',
  resale_price: 'Resale price',
  orginal_price: 'Original price',
  use_duration: 'Years of use',
  phone_number: 'Phone number',
  product_condition: 'Condition',
  category_id: 'Category',
  meeting_location: 'Meeting location',
  photoURL: 'Photo',
  transationId: 'Transaction id',
  bookingId: 'Booking',
  exp_month: 'Expiry month',
  exp_year: 'Expiry year',
  cvc: 'CVC',
  body: 'The request',
};

/** "phone_number" -> "Phone number", "card.exp_month" -> "Expiry month", "photoURL" -> "Photo". */
export function fieldLabel(field: string): string {
  const parts = field.split('.').filter((part) => !/^\d+$/.test(part));
  const last = parts[parts.length - 1] ?? field;
  const known = FIELD_LABELS[field] ?? FIELD_LABELS[last];
  if (known) return known;
  const words = last
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'This field';
}

/** zod's own wording, where a schema gave none, said the way the shop says the rest. */
function plainRule(message: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^Too small: expected string to have >=?(\d+) characters?$/.exec(message))) return `must be at least ${m[1]} characters`;
  if ((m = /^Too big: expected string to have <=?(\d+) characters?$/.exec(message))) return `must be at most ${m[1]} characters`;
  if ((m = /^Too small: expected number to be >=?(\S+)$/.exec(message))) return `must be at least ${m[1]}`;
  if ((m = /^Too big: expected number to be <=?(\S+)$/.exec(message))) return `must be at most ${m[1]}`;
  if (/^Invalid input: expected \w+, received undefined$/.test(message)) return 'is required';
  if (/^Invalid (input|option)/.test(message)) return 'is not valid';
  return message;
}

/** One field's rule as a sentence: ("password", "must be at least 6 characters") -> "Password must be at least 6 characters." */
export function fieldSentence(field: string, message: string): string {
  const text = `${fieldLabel(field)} ${plainRule(message.trim())}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The text with its first letter upper case: 'its seller …' as it starts a sentence. */
export function capitalized(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/**
 * A problem+json answer as sentences: each bad field the server named ("Phone number must have
 * 6 to 15 digits."), else its detail, else its title.
 */
export function problemText(problem: Problem): string {
  const { errors, field, detail } = problem;
  if (errors && errors.length > 0) {
    const sentences = [...new Set(errors.map((e) => fieldSentence(e.field, e.message)))];
    return sentences.slice(0, 3).join(' ');
  }
  // "password must be at least 6 characters" names its field first: say it with the field's label.
  if (detail && field && detail.startsWith(`${field} `)) return fieldSentence(field, detail.slice(field.length + 1));
  return capitalized(detail ?? problem.title);
}

/** No answer (0), or a server that could not answer for now (502, 503, 504): an outage. */
export function outageStatus(status: number): boolean {
  return status === 0 || status === 502 || status === 503 || status === 504;
}

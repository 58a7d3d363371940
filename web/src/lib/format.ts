/** Prices are TK everywhere; two decimals only when there are poisha. */
export function formatTk(amount: number): string {
  const digits = Number.isInteger(amount) ? 0 : 2;
  return `${amount.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: 2 })} TK`;
}

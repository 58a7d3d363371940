/** TV Shop sells in Bangladesh: a listing's day is the day in Dhaka (UTC+6), where its seller listed it. */
export const SHOP_TIME_ZONE = 'Asia/Dhaka';

let dayParts: Intl.DateTimeFormat | undefined;

/** d-m-yyyy without padding, as the spec shows post dates (`postedOn`), on the shop's day (SHOP_TIME_ZONE). */
export const postDate = (d: Date): string => {
  dayParts ??= new Intl.DateTimeFormat('en-GB', { timeZone: SHOP_TIME_ZONE, day: 'numeric', month: 'numeric', year: 'numeric' });
  const parts = dayParts.formatToParts(d);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return `${part('day')}-${part('month')}-${part('year')}`;
};

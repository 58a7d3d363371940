import { telHref } from '@/lib/format';

/**
 * A phone number as a link that dials it: one tap on a phone. Named for whom it calls when `of`
 * is given ("Call Karim Traders on 01711000000"); else by the number itself.
 */
export function PhoneLink({ phone, of }: { phone: string; of?: string }) {
  return (
    <a href={telHref(phone)} {...(of ? { 'aria-label': `Call ${of} on ${phone}` } : {})}>
      {phone}
    </a>
  );
}

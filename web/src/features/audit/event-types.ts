import type { DomainEventType } from '@tv-shop/contracts';
import type { TagColor } from '@/components/ui/tag';

/** Every published event type, checked against the contracts: a new type fails to compile until it is named here. */
const known: Record<DomainEventType, { colour: TagColor }> = {
  UserRegistered: { colour: 'purple' },
  UserProfileUpdated: { colour: 'purple' },
  PasswordChanged: { colour: 'purple' },
  SessionsEnded: { colour: 'purple' },
  SignedOut: { colour: 'purple' },
  SellerVerified: { colour: 'purple' },
  UserDeleted: { colour: 'red' },
  ProductListed: { colour: 'blue' },
  ProductEdited: { colour: 'blue' },
  ProductMarkedSold: { colour: 'green' },
  ProductMarkedAvailable: { colour: 'blue' },
  ProductAdvertised: { colour: 'geekblue' },
  ProductAdvertisingRemoved: { colour: 'geekblue' },
  ProductReported: { colour: 'orange' },
  ProductReportsDismissed: { colour: 'orange' },
  ProductRemoved: { colour: 'red' },
  CategoryAdded: { colour: 'default' },
  BlogPublished: { colour: 'default' },
  ListingSlotTaken: { colour: 'gold' },
  ListingSlotFreed: { colour: 'gold' },
  BookingPlaced: { colour: 'cyan' },
  PaymentIntentCreated: { colour: 'cyan' },
  PaymentReceived: { colour: 'cyan' },
  BookingPaid: { colour: 'green' },
  BookingCancelled: { colour: 'volcano' },
  PaymentRefunded: { colour: 'volcano' },
};

export const eventTypes = (Object.keys(known) as DomainEventType[]).sort();

/** The tag colour of an event type; one the app does not know yet (a newer server) is plain. */
export const typeColour = (type: string): TagColor => (type in known ? known[type as DomainEventType].colour : 'default');

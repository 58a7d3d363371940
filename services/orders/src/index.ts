export { startOrders, bookingIdFor, type OrdersDeps, type PlaceBookingData } from './module';
export { bookingDecider } from './booking/decide';
export type { PaymentProvider, PaymentIntent } from './payments/provider';
export { SandboxPaymentProvider, type CardInput } from './payments/sandbox';
export { StripePaymentProvider } from './payments/stripe';
export { edgePaymentsFromEnv, paymentProviderFromEnv, type EdgePayments } from './payments/from-env';
export { ordersProjections, OrdersQueries, type UnsoldOf } from './read-model';
export { ordersStreams } from './streams';

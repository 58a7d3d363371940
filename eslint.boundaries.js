import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Import boundaries (docs/architecture.md): what each part of the tree may depend on. A service
 * reaches another only through packages/contracts and the command bus; the platform and the
 * contracts know nothing above them; in the web app, features do not import each other and
 * shared code does not import features.
 */
const restrict = (files, patterns, paths = []) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns, paths }] } });
const domainServices = ['identity', 'catalog', 'orders'];
const INTO_SRC = "No relative imports into another service's src: import its package (@tv-shop/<service>) instead.";
/** Imports the web app keeps out of its chunks, in every file of web/src but its tests' (ADR 0041). */
const WEB_PATHS = [
  {
    name: 'antd',
    importNames: ['Input'],
    message: "antd's Input brings Search, Password, OTP, TextArea and Group along: import the one used from 'antd/es/input/<Name>'.",
  },
];
const webFeatures = readdirSync(path.join(import.meta.dirname, 'web/src/features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
export const boundaries = [
  restrict(
    ['packages/contracts/**/*.ts'],
    [{ group: ['@tv-shop/*'], message: 'packages/contracts is the shared vocabulary: it imports nothing of ours.' }],
  ),
  restrict(
    ['packages/platform/**/*.ts'],
    [{ group: ['@tv-shop/*'], message: 'packages/platform knows no domain: no contracts, no services, no gateway.' }],
  ),
  restrict(
    ['packages/images/**/*.ts'],
    [{ group: ['@tv-shop/*', '!@tv-shop/platform'], message: 'packages/images stores and checks pictures: it knows no domain.' }],
  ),
  ...domainServices.map((service) =>
    restrict(
      [`services/${service}/**/*.ts`],
      [
        {
          group: ['@tv-shop/gateway', '@tv-shop/projector', ...domainServices.filter((s) => s !== service).map((s) => `@tv-shop/${s}`)],
          message: 'A service reaches other services only through @tv-shop/contracts and the command bus.',
        },
        {
          group: ['**/gateway/**', '**/projector/**', ...domainServices.filter((s) => s !== service).map((s) => `**/${s}/src/**`)],
          message: 'No relative imports into another part of the tree.',
        },
      ],
    ),
  ),
  // The hosts use the services through their packages (@tv-shop/<service>), never their files.
  restrict(
    ['services/gateway/**/*.ts'],
    [{ group: ['identity', 'catalog', 'orders', 'projector', 'shop'].map((s) => `**/${s}/src/**`), message: INTO_SRC }],
  ),
  // The edge is composed by its host, never the other way round (its tests may start the shop).
  {
    files: ['services/gateway/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'services/gateway/src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['identity', 'catalog', 'orders', 'projector', 'shop'].map((s) => `**/${s}/src/**`), message: INTO_SRC },
            { group: ['@tv-shop/shop', '@tv-shop/projector'], message: 'The gateway is an edge: the host (services/shop) composes it.' },
          ],
        },
      ],
    },
  },
  restrict(
    ['services/shop/**/*.ts'],
    [{ group: ['identity', 'catalog', 'orders', 'projector', 'gateway'].map((s) => `**/${s}/src/**`), message: INTO_SRC }],
  ),
  restrict(
    ['services/projector/**/*.ts'],
    [
      { group: ['@tv-shop/gateway'], message: 'The projector host does not depend on the gateway.' },
      { group: ['identity', 'catalog', 'orders', 'gateway'].map((s) => `**/${s}/src/**`), message: INTO_SRC },
    ],
  ),
  ...webFeatures.map((feature) =>
    restrict(
      [`web/src/features/${feature}/**/*.{ts,tsx}`],
      [
        {
          group: webFeatures.filter((f) => f !== feature).map((f) => `@/features/${f}/**`),
          message: 'Features do not import each other; compose them in web/src/app.',
        },
      ],
      WEB_PATHS,
    ),
  ),
  restrict(
    ['web/src/lib/**/*.{ts,tsx}', 'web/src/components/**/*.{ts,tsx}', 'web/src/config/**/*.{ts,tsx}'],
    [{ group: ['@/features/*', '@/features/**', '@/app/*', '@/app/**'], message: 'Shared code never imports features or the app.' }],
    WEB_PATHS,
  ),
  restrict(['web/src/app/**/*.{ts,tsx}', 'web/src/*.{ts,tsx}'], [], WEB_PATHS),
];

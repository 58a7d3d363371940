import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundaries } from '../eslint.boundaries.js';

/** The import boundaries of eslint.config.js (eslint.boundaries.js), checked on deliberate violations (and allowed imports). */
describe('import boundaries', () => {
  const linter = new Linter({ configType: 'flat' });
  const problems = (filename: string, code: string) =>
    linter
      .verify(code, [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } }, ...boundaries], { filename })
      .filter((m) => m.ruleId === 'no-restricted-imports')
      .map((m) => m.message);

  it('when a service imports another service or the gateway, then lint fails; contracts and platform are allowed', () => {
    expect(problems('services/catalog/src/x.ts', "import { startOrders } from '@tv-shop/orders';")).toEqual([
      expect.stringMatching(/only through @tv-shop\/contracts/),
    ]);
    expect(problems('services/orders/src/x.ts', "import { createApp } from '@tv-shop/gateway';")).toHaveLength(1);
    expect(problems('services/identity/src/x.ts', "import { x } from '../../catalog/src/module';")).toHaveLength(1);
    expect(
      problems('services/catalog/src/x.ts', "import { streams } from '@tv-shop/contracts';\nimport { fold } from '@tv-shop/platform';"),
    ).toEqual([]);
  });

  it("when the gateway or the projector reach into another service's files, then lint fails; its package is allowed", () => {
    expect(problems('services/gateway/src/routes/x.ts', "import { bookingIdFor } from '../../../orders/src/booking/ids';")).toEqual([
      expect.stringMatching(/another service's src/),
    ]);
    expect(problems('services/projector/src/x.ts', "import { catalogProjections } from '../../catalog/src/read-model';")).toHaveLength(1);
    expect(problems('services/projector/src/x.ts', "import { attachSockets } from '../../gateway/src/sockets';")).toHaveLength(1);
    expect(problems('services/projector/src/x.ts', "import { createApp } from '@tv-shop/gateway';")).toHaveLength(1);
    expect(
      problems(
        'services/gateway/src/routes/x.ts',
        "import { bookingIdFor } from '@tv-shop/orders';\nimport { CommandSender } from '../commands';",
      ),
    ).toEqual([]);
    expect(problems('services/projector/src/x.ts', "import { catalogProjections } from '@tv-shop/catalog';")).toEqual([]);
  });

  it('when the gateway imports its host (the shop) or the projector, then lint fails; its tests may start the shop', () => {
    expect(problems('services/gateway/src/routes/x.ts', "import { startAll } from '@tv-shop/shop';")).toEqual([
      expect.stringMatching(/the host \(services\/shop\) composes it/),
    ]);
    expect(problems('services/gateway/src/x.ts', "import { startProjector } from '@tv-shop/projector';")).toHaveLength(1);
    expect(problems('services/gateway/src/x.int.test.ts', "import { startAll } from '@tv-shop/shop';")).toEqual([]);
    expect(problems('services/shop/src/x.ts', "import { attachSockets } from '../../gateway/src/sockets';")).toHaveLength(1);
    expect(problems('services/shop/src/x.ts', "import { serveGateway } from '@tv-shop/gateway';")).toEqual([]);
  });

  it('when the platform or the contracts import anything of ours, then lint fails', () => {
    expect(problems('packages/platform/src/x.ts', "import type { Product } from '@tv-shop/contracts';")).toEqual([
      expect.stringMatching(/knows no domain/),
    ]);
    expect(problems('packages/contracts/src/x.ts', "import { AppError } from '@tv-shop/platform';")).toHaveLength(1);
    expect(problems('packages/images/src/x.ts', "import { AppError } from '@tv-shop/platform';")).toEqual([]);
    expect(problems('packages/images/src/x.ts', "import { CatalogQueries } from '@tv-shop/catalog';")).toHaveLength(1);
  });

  it('when a web feature imports another feature, or shared code imports a feature, then lint fails', () => {
    expect(problems('web/src/features/products/x.tsx', "import { bookingsStore } from '@/features/bookings/atoms';")).toHaveLength(1);
    expect(problems('web/src/features/products/x.tsx', "import { productsStore } from '@/features/products/atoms';")).toEqual([]);
    expect(problems('web/src/lib/x.ts', "import { productsStore } from '@/features/products/atoms';")).toHaveLength(1);
    expect(problems('web/src/components/ui/x.tsx', "import { AppRouter } from '@/app/router';")).toHaveLength(1);
    expect(problems('web/src/app/routes/x.tsx', "import { productsStore } from '@/features/products/atoms';")).toEqual([]);
  });
});

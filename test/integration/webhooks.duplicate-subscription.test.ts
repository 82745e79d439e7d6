import { describe, expect, it } from 'vitest';
import { validateSubscription } from '../../src/webhooks/subscription-input.js';
import { SubscriptionsRepository } from '../../src/webhooks/subscriptions.repository.js';
import { tempStore } from '../helpers/store.js';

describe("a client's second subscription to a URL", () => {
  it('is refused while the first is active (each event would reach the URL twice, under two delivery ids), and taken once it is not', async () => {
    const ctx = await tempStore();
    try {
      const subscriptions = new SubscriptionsRepository(ctx.store);
      const input = validateSubscription({ clientId: 'client-a', url: 'https://hooks.example.com/afford', events: ['customers.deleted'] });
      const first = await subscriptions.add(input);
      await expect(subscriptions.add(input)).rejects.toThrow(`client client-a already has an active subscription to this URL (${first.subscriptionId})`);
      // Another client, or another URL, is another subscription.
      await subscriptions.add({ ...input, clientId: 'client-b' });
      await subscriptions.add({ ...input, url: 'https://hooks.example.com/other' });
      expect(await subscriptions.setActive(first.subscriptionId, false)).toBe(true);
      const second = await subscriptions.add(input);
      // Nor may the first be activated again beside the second.
      await expect(subscriptions.setActive(first.subscriptionId, true)).rejects.toThrow(`already has an active subscription to this URL (${second.subscriptionId})`);
      expect((await subscriptions.list('client-a')).filter((s) => s.active).map((s) => s.url).sort()).toEqual(['https://hooks.example.com/afford', 'https://hooks.example.com/other']);
    } finally {
      await ctx.cleanup();
    }
  });
});

import { test, expect } from '../support/fixtures.ts';
import { reviewScreen } from '../support/review.ts';
import { realtimeSubscribed, signInPage } from '../support/shop.ts';

// docs/product.md §7: every cart change emits `cart-updated` on the user's private
// cart channel; another tab of the same user refetches the cart and its badge follows.

test('the cart badge of a second tab follows the first one through the realtime channel', async ({ page, context, accounts }, testInfo) => {
  test.slow();
  const customer = await accounts.customer('two-tabs');
  await signInPage(page, customer);
  const second = await context.newPage();

  const subscribed = realtimeSubscribed(second);
  await page.goto('/shop');
  await second.goto('/dashboard');
  await expect(second.getByTestId('cart-link')).toHaveAccessibleName('Cart, empty');
  // Change the cart only once the second tab listens on its channel.
  await subscribed;
  await expect(page.getByRole('article', { name: 'Business' })).toBeVisible();

  await page.getByRole('article', { name: 'Business' }).getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await expect(second.getByTestId('cart-count')).toHaveText('1');
  await expect(second.getByTestId('cart-link')).toHaveAccessibleName('Cart, 1 item');

  await page.getByRole('article', { name: 'Starter' }).getByRole('button', { name: 'Add to cart' }).click();
  await expect(second.getByTestId('cart-count')).toHaveText('2');

  // The other way round: the second tab empties a row on the cart page.
  await second.goto('/shop/cart');
  await expect(second.getByTestId('cart-row')).toHaveCount(2);
  await second.getByRole('button', { name: /^Remove .*Business/ }).click();
  await expect(second.getByTestId('cart-row')).toHaveCount(1);
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await reviewScreen(second, testInfo, 'shop-cart-hosting', { include: 'main' });
});

import { test, expect } from '../support/fixtures.ts';
import { reviewScreen } from '../support/review.ts';
import { signIn } from '../support/shell-session.ts';

// Issue 14 "Profile": a customer edits their name, phone and billing details (printed on new
// invoices), uploads and removes the avatar, and asks to change the sign-in e-mail.

// A 2×2 PNG (red), enough for the server's image check.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

test('a customer keeps their billing details, picture and e-mail on /account', async ({ page, accounts, baseURL }, testInfo) => {
  const customer = await accounts.customer('profile');
  await signIn(page.context(), baseURL as string, customer.email, customer.password);
  await page.goto('/account');
  const details = page.getByRole('region', { name: 'Personal and billing details' });
  await expect(details.getByLabel('Given name')).toHaveValue(customer.givenName);

  // Bad input is told under its field and nothing is saved.
  await details.getByLabel('Company').fill('Nováková Design s.r.o.');
  await details.getByLabel('VAT ID').fill('12345');
  await details.getByLabel('Phone').fill('call me');
  await details.getByRole('button', { name: 'Save details' }).click();
  await expect(details.getByText('Enter a VAT ID with its country prefix, e.g. CZ12345678.')).toBeVisible();
  await expect(details.getByText('Enter a phone number of digits')).toBeVisible();

  await details.getByLabel('VAT ID').fill('cz 123 456 78');
  await details.getByLabel('Phone').fill('+420 601 123 456');
  await details.getByLabel('Street and number').fill('Karlova 12');
  await details.getByLabel('Postal code').fill('110 00');
  await details.getByLabel('City').fill('Praha 1');
  await details.getByLabel('Country').selectOption('CZ');
  await details.getByLabel('Surname').fill('Nováková');
  await details.getByRole('button', { name: 'Save details' }).click();
  await expect(details.getByText('Your details have been saved.')).toBeVisible();
  await expect(details.getByLabel('VAT ID')).toHaveValue('CZ12345678');
  // The header's name follows at once.
  await expect(page.getByTestId('shell-user-name')).toHaveText(`${customer.givenName} Nováková`);
  await reviewScreen(page, testInfo, 'account-details-saved', { include: 'main' });

  await page.reload();
  await expect(details.getByLabel('Company')).toHaveValue('Nováková Design s.r.o.');
  await expect(details.getByLabel('Country')).toHaveValue('CZ');

  // The picture: uploaded (the image is then served and drawn), removed again. The initials drawn
  // before any upload have nothing to remove.
  const avatar = page.getByTestId('profile-avatar').locator('img');
  const removePicture = page.getByRole('button', { name: 'Remove picture' });
  await expect(removePicture).toHaveCount(0);
  const srcBefore = await avatar.getAttribute('src');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload a picture' }).click();
  await (await chooser).setFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(avatar).not.toHaveAttribute('src', srcBefore ?? '');
  await expect.poll(() => avatar.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  const uploaded = await avatar.getAttribute('src');
  await page.reload();
  await removePicture.click();
  await expect(avatar).not.toHaveAttribute('src', uploaded ?? '');
  await expect(removePicture).toHaveCount(0);

  // A new sign-in address needs the password, then the link mailed to it.
  const email = page.getByRole('region', { name: 'Sign-in e-mail' });
  await email.getByRole('button', { name: 'Change e-mail' }).click();
  await email.getByLabel('New e-mail address').fill(`new-${customer.email}`);
  await email.getByLabel('Current password').fill('not my password');
  await email.getByRole('button', { name: 'Send the confirmation link' }).click();
  await expect(email.getByRole('alert').or(email.getByText(/password/i).nth(1))).toBeVisible();
  await email.getByLabel('Current password').fill(customer.password);
  await email.getByRole('button', { name: 'Send the confirmation link' }).click();
  await expect(email.getByText('We have sent a link to your new e-mail address. Please verify it.')).toBeVisible();
  await expect(email.getByRole('button', { name: 'Change e-mail' })).toBeVisible();
  await reviewScreen(page, testInfo, 'account-email-change-sent', { include: 'main' });
});

import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll } from './a11y.js';
import { actionCards, expectPhotoShown } from './action-helpers.js';
import { ADMIN, CLIENT, expectPath, signIn } from './helpers.js';

// The demo seed files open and closed follow-up actions from its visits, by the server's own rule.

// Sign-in, photos made on demand and axe on a shared 2-core machine: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

test('an Admin on a phone sees open actions, their photo and history, and closes one with a note', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.goto('/admin?view=reports');
  await page.getByRole('button', { name: /^Follow-up Actions/ }).click();
  await expect(page.getByRole('heading', { name: 'Follow-up Actions' })).toBeVisible();
  await expect(page.getByText(/^Showing 1(–\d+)? of \d+ actions?$/)).toBeVisible();
  const cards = actionCards(page);
  await expect(cards.first()).toBeVisible();
  // The default list is the open actions.
  await expect(cards.first().getByText('Open', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Open actions by age' })).toContainText('0–2 days');
  await page.screenshot({ path: '/tmp/actions-390-admin-list.png', fullPage: true });

  const card = cards.first();
  const number = (await card.getByText(/^Action \d+$/).textContent()) ?? '';
  expect(number).toMatch(/^Action \d+$/);
  const place = /^(\S+) · (.+?) · Curve /.exec((await card.getByText(/ · Curve /).first().textContent()) ?? '');
  expect(place, 'the card names its division and section').not.toBeNull();
  const [, division = '', section = ''] = place ?? [];
  await card.getByRole('button', { name: /^Show details/ }).click();
  const details = card.getByRole('region', { name: /^Details of / });
  await expectPhotoShown(details.getByRole('img', { name: /^Photo of / }).first());
  await expect(details.getByRole('list', { name: 'History' }).getByRole('listitem').first()).toContainText('Opened');
  await expect(details.getByRole('link', { name: /^Open record / }).first()).toBeVisible();

  // Targets a thumb can hit, and a phone that never scrolls sideways, at 360 px too.
  for (const target of [card.getByRole('button', { name: /^Hide details/ }), card.getByRole('button', { name: 'Close Action' })]) {
    expect(await target.evaluate((e) => e.getBoundingClientRect().height)).toBeGreaterThanOrEqual(44);
  }
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoSidewaysScroll(page, 'Follow-up Actions at 360 px');
  await page.setViewportSize({ width: 390, height: 844 });

  // A note is required: nothing is sent without one.
  await card.getByRole('button', { name: 'Close Action' }).click();
  await card.getByRole('button', { name: 'Close with Note' }).click();
  await expect(card.getByRole('alert')).toHaveText('A note is required: say why.');
  await expectNoSeriousA11yViolations(page, 'Follow-up Actions, a card open with its note form');
  await page.screenshot({ path: '/tmp/actions-390-admin-details.png', fullPage: true });

  const note = `Closed by the e2e test: the site engineer confirmed the fix (${Date.now()})`;
  await card.getByLabel('Note (why)').fill(note);
  await card.getByRole('button', { name: 'Close with Note' }).click();
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'Action Closed' })).toBeVisible();

  // Gone from the open ones; among the closed ones, with the Admin's note. The demo's year
  // closed hundreds, listed by due date, so its section narrows them to a page.
  await page.getByLabel('State').selectOption('closed');
  await page.getByLabel('Division/Railway', { exact: true }).selectOption(division);
  await page.getByLabel('Section', { exact: true }).selectOption(section);
  const closed = actionCards(page).filter({ has: page.getByText(number, { exact: true }) });
  await expect(closed).toHaveCount(1);
  await expect(closed.getByText('Closed', { exact: true })).toBeVisible();
  await closed.getByRole('button', { name: /^Show details/ }).click();
  await expect(closed.getByText(note).first()).toBeVisible();
  await expect(closed.getByRole('button', { name: 'Reopen Action' })).toBeVisible();
});

test('a Client reads the actions of their own division only, read-only, from the landing counts', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, CLIENT.employeeId);
  await expectPath(page, '/admin');
  const counts = page.getByRole('region', { name: 'Follow-up actions' });
  await expect(counts.getByRole('rowheader')).toHaveText([CLIENT.division]);
  await counts.getByRole('link', { name: new RegExp(`open actions in ${CLIENT.division}$`) }).click();
  await expect(page.getByRole('heading', { name: 'Follow-up Actions' })).toBeVisible();

  const cards = actionCards(page);
  await expect(cards.first()).toBeVisible();
  for (const text of await cards.allTextContents()) expect(text).toContain(`${CLIENT.division} · `);
  await expect(page.getByLabel('Division/Railway')).toHaveCount(0);

  await cards.first().getByRole('button', { name: /^Show details/ }).click();
  await expectPhotoShown(cards.first().getByRole('img', { name: /^Photo of / }).first());
  await expect(page.getByRole('button', { name: /Close Action|Reopen Action/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Open record / })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'Follow-up Actions as a Client');
  await page.screenshot({ path: '/tmp/actions-1280-client.png', fullPage: true });

  // The server agrees: a Client may not close.
  const id = Number(((await cards.first().getByText(/^Action \d+$/).textContent()) ?? '').replace('Action ', ''));
  expect((await page.request.post(`/api/actions/${id}/close`, { data: { note: 'not mine to close' } })).status()).toBe(403);
});

test('the reports landing and the Actions view at 1280 px for an Admin', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.goto('/admin?view=reports');
  const counts = page.getByRole('region', { name: 'Follow-up actions' });
  await expect(counts.getByRole('rowheader').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'Reports & Analytics with the action counts');
  await page.screenshot({ path: '/tmp/actions-1280-landing.png', fullPage: true });
  await counts.getByRole('link', { name: /overdue actions in / }).first().click();
  await expect(page.getByRole('heading', { name: 'Follow-up Actions' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Overdue only' })).toBeChecked();
  await expect(page.getByText(/^Showing|^No follow-up actions/)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'Follow-up Actions at 1280 px');
  await page.screenshot({ path: '/tmp/actions-1280-admin.png', fullPage: true });
});

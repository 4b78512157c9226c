import { expect, test, type Page } from '@playwright/test';
import { ADMIN, expectPath, signIn } from './helpers.js';

/**
 * A signed-in Admin opens a page of another site that submits forms to the app, as a
 * cross-site request forgery would: the browser sends them (a top-level POST, with whatever
 * cookie the browser decides to attach) and the app refuses each with 403 CROSS_SITE_REQUEST.
 * Nothing is deleted and the Admin stays signed in.
 */
const EVIL = 'http://evil.test';

async function firstRecordId(page: Page): Promise<string> {
  const response = await page.request.get('/api/inspections?limit=1');
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { logs: Array<{ recordId: string }> };
  const recordId = body.logs[0]?.recordId;
  if (!recordId) throw new Error('the demo data has no inspection record');
  return recordId;
}

/** A page of another site whose form posts itself to the app as soon as it loads. */
function forgedForm(action: string, fields: Record<string, string>, enctype = 'application/x-www-form-urlencoded'): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name='${name}' value='${value}'>`)
    .join('');
  return `<!doctype html><html><body><h1>You won a prize</h1><form id="f" method="POST" enctype="${enctype}" action="${action}">${inputs}</form>` +
    '<script>document.getElementById("f").submit()</script></body></html>';
}

test('forms another site submits to the app are refused, delete nothing and sign no one out', async ({ page, baseURL }) => {
  await signIn(page, ADMIN.employeeId);
  // An Admin on a phone lands on /purpose, on a desk on /admin: signed in either way.
  await expect(page).not.toHaveURL(/\/login/);
  const recordId = await firstRecordId(page);
  const app = baseURL ?? '';

  await page.route(`${EVIL}/delete`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      // text/plain turns name=value into a JSON body: the classic way to forge a JSON POST.
      body: forgedForm(`${app}/api/images/delete`, { [`{"imageIds":["${recordId}"],"pad":"`]: '"}' }, 'text/plain'),
    }),
  );
  await page.route(`${EVIL}/logout`, (route) => route.fulfill({ contentType: 'text/html', body: forgedForm(`${app}/api/auth/logout`, {}) }));

  for (const attack of ['delete', 'logout']) {
    const refused = page.waitForResponse((response) => response.url().startsWith(`${app}/api/`) && response.request().method() === 'POST');
    await page.goto(`${EVIL}/${attack}`);
    const answer = await refused;
    expect(answer.status(), attack).toBe(403);
    expect(await answer.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
    // The browser lands on the app's refusal, a JSON error naming the other site.
    await expect(page.locator('body')).toContainText('This request came from another site (http://evil.test) and was refused');
  }

  // Back in the app: still signed in (the records view opens, not the sign-in), the record still there.
  await page.goto('/admin?view=records-management');
  await expectPath(page, '/admin');
  await expect(page.getByRole('heading', { level: 2, name: 'Inspection Records & Images' })).toBeVisible();
  const still = await page.request.get(`/api/inspections?q=${encodeURIComponent(recordId)}`);
  expect(((await still.json()) as { logs: Array<{ recordId: string }> }).logs.map((log) => log.recordId)).toContain(recordId);
});

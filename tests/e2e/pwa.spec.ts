import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { TECHNICIAN, expectPath, signIn } from './helpers.js';

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** Waits for an active service worker and returns where it came from. */
async function activeServiceWorker(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return { scope: registration.scope, scriptURL: registration.active?.scriptURL ?? null };
  });
}

/** The service worker answers this page's requests (clientsClaim takes over the first page). */
async function waitForControl(page: Page) {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), {
      message: 'a service worker controls the page',
      timeout: 15_000,
    })
    .toBe('activated');
}

test.describe('installable app', () => {
  test('the manifest names the app, its icons and standalone display', async ({ request, baseURL }) => {
    const response = await request.get('/manifest.webmanifest');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    // A new deploy's manifest must not wait behind a cached copy.
    expect(response.headers()['cache-control']).toBe('no-cache');
    const manifest = (await response.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
    expect(manifest).toMatchObject({
      name: 'HKMI Field Service',
      short_name: 'HKMI',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      theme_color: '#1e3a8a',
    });
    expect(typeof manifest.description).toBe('string');
    expect(typeof manifest.background_color).toBe('string');

    // Every icon is a real PNG of the size it claims; the set has 192, 512 and a maskable one.
    for (const icon of manifest.icons) {
      const image = await request.get(new URL(icon.src, baseURL).href);
      expect(image.status(), icon.src).toBe(200);
      expect(image.headers()['content-type']).toBe('image/png');
      const [width, height] = pngSize(await image.body());
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    }
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));

    const appleIcon = await request.get('/icons/apple-touch-icon.png');
    expect(appleIcon.status()).toBe(200);
    expect(pngSize(await appleIcon.body())).toEqual([180, 180]);
  });

  test("Chromium's installability check finds no errors once the service worker is active", async ({
    playwright,
    launchOptions,
    baseURL,
    viewport,
    userAgent,
    deviceScaleFactor,
    isMobile,
    hasTouch,
  }) => {
    // Playwright's usual contexts are incognito, where Chromium never offers to install
    // ("in-incognito"); a persistent profile is what a phone's browser has.
    const context = await playwright.chromium.launchPersistentContext(test.info().outputPath('profile'), {
      ...launchOptions,
      baseURL,
      viewport,
      userAgent,
      deviceScaleFactor,
      isMobile,
      hasTouch,
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
      await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/icons/apple-touch-icon.png');

      const worker = await activeServiceWorker(page);
      const origin = new URL(page.url()).origin;
      expect(worker).toEqual({ scope: `${origin}/`, scriptURL: `${origin}/sw.js` });

      const cdp = await context.newCDPSession(page);
      const { url, errors } = await cdp.send('Page.getAppManifest');
      expect(url).toBe(`${origin}/manifest.webmanifest`);
      expect(errors).toEqual([]);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('the service worker caches the shell but never an API answer', async ({ page, context }) => {
    await page.goto('/login');
    await expect(page.getByText('Connected')).toBeVisible();
    await waitForControl(page);
    // An API call made while the worker controls the page...
    expect(await page.evaluate(() => fetch('/api/health').then((r) => r.status))).toBe(200);

    const cached = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
      }
      return paths;
    });
    expect(cached).toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest', '/icons/icon-192.png']));
    expect(cached.some((path) => path.endsWith('.js') && path.startsWith('/assets/'))).toBe(true);
    expect(cached.filter((path) => path.startsWith('/api'))).toEqual([]);

    // ...fails offline instead of being answered from a cache.
    await context.setOffline(true);
    const offline = await page.evaluate(() =>
      fetch('/api/health').then(
        (r) => r.status,
        () => 'network error',
      ),
    );
    expect(offline).toBe('network error');
  });
});

test.describe('offline shell', () => {
  test('a signed-in technician reopens the app offline; signing out and the login screen work from cache', async ({ page, context }) => {
    await signIn(page, TECHNICIAN.employeeId);
    await expectPath(page, '/purpose');
    await expect(page.getByText(TECHNICIAN.name)).toBeVisible();
    await waitForControl(page);

    await context.setOffline(true);
    await page.reload();
    await expectPath(page, '/purpose');
    await expect(page.getByText(TECHNICIAN.name)).toBeVisible();
    await expect(page.getByText('Service Inspection')).toBeVisible();

    // A deep link typed or opened from the home screen also comes from the cache.
    await page.goto('/purpose');
    await expect(page.getByText('Service Inspection')).toBeVisible();

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await page.goto('/login');
    await expectPath(page, '/login');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  });
});

/**
 * A stand-in for the next deploy: a proxy in front of the test server that, once `deploy()`
 * is called, serves a service worker script with other bytes, as a new build would. (The
 * browser's update check of /sw.js is invisible to Playwright's routing and to CDP's Fetch.)
 */
async function startDeployProxy(target: string) {
  let deployed = false;
  const server = createServer((req, res) => {
    const rewrite = deployed && (req.url ?? '').split('?')[0] === '/sw.js';
    const headers = { ...req.headers };
    if (rewrite) {
      // The bytes change, so the old validators must not earn a 304.
      delete headers['if-none-match'];
      delete headers['if-modified-since'];
      // Plain bytes, so the appended line stays JavaScript (the server sends .br/.gz otherwise).
      delete headers['accept-encoding'];
    }
    const upstream = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers }, (answer) => {
      if (!rewrite || answer.statusCode !== 200) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat([...chunks, Buffer.from('\n// the next deploy\n')]);
        res.writeHead(200, { ...answer.headers, 'content-length': String(body.length), etag: '"next-deploy"' });
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    deploy: () => {
      deployed = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test.describe('update prompt', () => {
  test('a new deploy is offered, not forced: Later keeps this version, Update now switches', async ({
    browser,
    baseURL,
    viewport,
    userAgent,
    isMobile,
    hasTouch,
  }) => {
    if (baseURL === undefined) throw new Error('baseURL is not set');
    const proxy = await startDeployProxy(baseURL);
    const context = await browser.newContext({ baseURL: proxy.url, viewport, userAgent, isMobile, hasTouch });
    try {
      const page = await context.newPage();
      await signIn(page, TECHNICIAN.employeeId);
      await expectPath(page, '/purpose');
      await waitForControl(page);
      const prompt = page.getByRole('status').filter({ hasText: 'A new version is available.' });
      await expect(prompt).toHaveCount(0);

      proxy.deploy();
      // The app looks for a new version when it comes back to the foreground.
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await expect(prompt).toBeVisible();
      const waiting = () => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null);
      expect(await waiting()).toBe('installed');

      await prompt.getByRole('button', { name: 'Later' }).click();
      await expect(prompt).toHaveCount(0);
      // The page keeps the old version and its place: nothing reloads on its own.
      await expectPath(page, '/purpose');
      expect(await waiting()).toBe('installed');

      // The next start finds the waiting version again.
      await page.reload();
      await expect(prompt).toBeVisible();
      const reloaded = page.waitForEvent('load');
      await prompt.getByRole('button', { name: 'Update now' }).click();
      await reloaded;
      await expectPath(page, '/purpose');
      await expect(page.getByText(TECHNICIAN.name)).toBeVisible();
      await expect(prompt).toHaveCount(0);
      expect(await waiting()).toBeNull();
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');
    } finally {
      await context.close();
      await proxy.close();
    }
  });
});

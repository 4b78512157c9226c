import { SESSION_COOKIE } from '../../common/constants.js';

/**
 * Signs in through the API as a browser would and returns `hkmi_session=<token>`, the value
 * for a `Cookie` header on later requests.
 */
export async function signIn(baseUrl: string, employeeId: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ employeeId, password }),
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status !== 200) {
    const body = await response.text();
    throw new Error(`sign-in as ${employeeId} answered HTTP ${response.status}: ${body.slice(0, 300)}`);
  }
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(';');
    if (!pair) continue;
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) return `${SESSION_COOKIE}=${pair.slice(eq + 1).trim()}`;
  }
  throw new Error(`sign-in as ${employeeId} answered 200 without a ${SESSION_COOKIE} cookie`);
}

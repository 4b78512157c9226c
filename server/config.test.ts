import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults for a fresh clone: port 5000, ./data, embedded database, demo on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 5000, databaseUrl: undefined, demo: true, sessionTtlSeconds: 7 * 86400, appTimeZone: 'Asia/Kolkata' });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('turns demo off by default in production and on PostgreSQL', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', DEMO: 'true' }).demo).toBe(true);
    expect(loadConfig({ DEMO: '0' }).demo).toBe(false);
  });

  it('parses owners, session lifetime and the first admin', () => {
    const config = loadConfig({ OWNER_EMPLOYEE_IDS: ' A1, B2 ,', SESSION_TTL: '12h', ADMIN_EMPLOYEE_ID: 'ADM9', ADMIN_PASSWORD: 'long enough' });
    expect(config.ownerEmployeeIds).toEqual(['A1', 'B2']);
    expect(config.sessionTtlSeconds).toBe(43200);
    expect(config.bootstrapAdmin).toEqual({ employeeId: 'ADM9', password: 'long enough' });
  });

  it('refuses demo mode in production unless told twice: the demo password is published', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO: 'true' })).toThrow(
      'Invalid configuration: DEMO must not be on in production (NODE_ENV=production): the demo accounts have a published password. Set ALLOW_DEMO_IN_PRODUCTION=true as well to run a demo on a production build',
    );
    expect(loadConfig({ NODE_ENV: 'production', DEMO: 'true', ALLOW_DEMO_IN_PRODUCTION: 'true' }).demo).toBe(true);
    // The second setting alone turns nothing on.
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_DEMO_IN_PRODUCTION: 'true' }).demo).toBe(false);
  });

  it('takes only plain employee IDs for owners and the first admin', () => {
    expect(() => loadConfig({ OWNER_EMPLOYEE_IDS: 'ADM1,\u212Aadm' })).toThrow(
      "Invalid configuration: OWNER_EMPLOYEE_IDS '\u212Aadm': Employee ID may contain only letters, digits, '.', '_' and '-'",
    );
    expect(() => loadConfig({ ADMIN_EMPLOYEE_ID: 'ADM 1', ADMIN_PASSWORD: 'long enough' })).toThrow(
      "Invalid configuration: ADMIN_EMPLOYEE_ID may contain only letters, digits, '.', '_' and '-'",
    );
  });

  it('believes the proxies TRUST_PROXY names: a number of hops or their addresses, never any proxy at all', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,loopback, fd00::/8' }).trustProxy).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback', 'fd00::/8']);
    for (const blanket of ['true', 'yes', 'on']) {
      expect(() => loadConfig({ TRUST_PROXY: blanket })).toThrow('TRUST_PROXY must name the proxies, not trust every one');
    }
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    for (const bad of ['10.0.0.0/33', 'proxy.example.org', '11', '10.0.0.5/8/1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/^Invalid configuration: TRUST_PROXY /);
    }
  });

  it('ends a session after 7 days unused and 30 days after its sign-in, and waits 5 minutes for a request to arrive', () => {
    expect(loadConfig({})).toMatchObject({ sessionTtlSeconds: 7 * 86400, sessionMaxAgeSeconds: 30 * 86400, requestTimeoutSeconds: 300 });
    expect(loadConfig({ SESSION_MAX_AGE: '12h', SESSION_TTL: '1h', REQUEST_TIMEOUT: '90s' })).toMatchObject({
      sessionTtlSeconds: 3600,
      sessionMaxAgeSeconds: 43200,
      requestTimeoutSeconds: 90,
    });
    expect(() => loadConfig({ SESSION_MAX_AGE: '1d', SESSION_TTL: '7d' })).toThrow('Invalid configuration: SESSION_MAX_AGE must be at least SESSION_TTL');
    expect(() => loadConfig({ REQUEST_TIMEOUT: 'soon' })).toThrow("Invalid configuration: REQUEST_TIMEOUT must be a duration such as '90s' or '5m'");
  });

  it('takes the CoF alert threshold, 0.25 by default', () => {
    expect(loadConfig({}).cofAlertThreshold).toBe(0.25);
    expect(loadConfig({ COF_ALERT_THRESHOLD: '0.3' }).cofAlertThreshold).toBe(0.3);
  });

  it('takes the origins besides its own whose pages may write, and refuses anything but an origin', () => {
    expect(loadConfig({}).allowedOrigins).toEqual([]);
    expect(loadConfig({ ALLOWED_ORIGINS: ' https://field.example.org, http://10.0.0.5:8080/ ,' }).allowedOrigins).toEqual([
      'https://field.example.org',
      'http://10.0.0.5:8080',
    ]);
    for (const bad of ['field.example.org', 'https://field.example.org/app', 'ftp://field.example.org']) {
      expect(() => loadConfig({ ALLOWED_ORIGINS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ALLOWED_ORIGINS: bad })).toThrow(`'${bad}' is not an origin such as https://field.example.org (scheme and host, no path)`);
    }
  });

  it('keeps reports 7 days unless told otherwise', () => {
    expect(loadConfig({}).reportRetentionDays).toBe(7);
    expect(loadConfig({ REPORT_RETENTION_DAYS: '30' }).reportRetentionDays).toBe(30);
  });

  it('makes one report at a time per instance and takes over a report silent for 60 s, unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ reportWorkers: 1, reportJobStaleSeconds: 60 });
    expect(loadConfig({ REPORT_WORKERS: '2', REPORT_JOB_STALE_SECONDS: '30' })).toMatchObject({ reportWorkers: 2, reportJobStaleSeconds: 30 });
    expect(() => loadConfig({ REPORT_WORKERS: '0' })).toThrow('Invalid configuration: REPORT_WORKERS must be 1 to 16');
    expect(() => loadConfig({ REPORT_JOB_STALE_SECONDS: '1' })).toThrow('Invalid configuration: REPORT_JOB_STALE_SECONDS must be 2 to 3600');
  });

  it('lets an Admin have 5 unfinished reports and a Client 2, unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ reportJobsPerAdmin: 5, reportJobsPerClient: 2 });
    expect(loadConfig({ REPORT_JOBS_PER_ADMIN: '8', REPORT_JOBS_PER_CLIENT: '3' })).toMatchObject({ reportJobsPerAdmin: 8, reportJobsPerClient: 3 });
    expect(() => loadConfig({ REPORT_JOBS_PER_ADMIN: '0' })).toThrow('Invalid configuration: REPORT_JOBS_PER_ADMIN must be 1 to 100');
    expect(() => loadConfig({ REPORT_JOBS_PER_CLIENT: 'two' })).toThrow('Invalid configuration: REPORT_JOBS_PER_CLIENT must be a number of reports');
    expect(() => loadConfig({ REPORT_JOBS_PER_CLIENT: '1.5' })).toThrow('Invalid configuration: REPORT_JOBS_PER_CLIENT must be a whole number');
  });

  it('writes readable log lines to a terminal and JSON lines otherwise and in production, unless LOG_FORMAT says', () => {
    expect(loadConfig({}, { stdoutIsTty: true }).logFormat).toBe('pretty');
    expect(loadConfig({}, { stdoutIsTty: false }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'production' }, { stdoutIsTty: true }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, { stdoutIsTty: true }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, { stdoutIsTty: false }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }, { stdoutIsTty: false }).logFormat).toBe('pretty');
    // Empty is "not set", as for every variable.
    expect(loadConfig({ LOG_FORMAT: '' }, { stdoutIsTty: false }).logFormat).toBe('json');
  });

  it('keeps no metrics unless METRICS_TOKEN is set, and never repeats a refused token', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'k8s-scraper-0123456789' }).metricsToken).toBe('k8s-scraper-0123456789');
    for (const token of ['short-secret', 'a token with spaces in it', 'unicodé-token-0123456789']) {
      let message = '';
      try {
        loadConfig({ METRICS_TOKEN: token });
      } catch (error) {
        message = error instanceof Error ? error.message : '';
      }
      expect(message).toMatch(/^Invalid configuration: METRICS_TOKEN must /);
      expect(message).not.toContain(token);
    }
  });

  it('closes at once on SIGTERM once its requests are answered, unless SHUTDOWN_DELAY_SECONDS says to wait', () => {
    expect(loadConfig({}).shutdownDelaySeconds).toBe(0);
    expect(loadConfig({ SHUTDOWN_DELAY_SECONDS: '15' }).shutdownDelaySeconds).toBe(15);
  });

  it.each([
    [{ METRICS_TOKEN: 'too-short' }, 'Invalid configuration: METRICS_TOKEN must be at least 16 characters'],
    [{ METRICS_TOKEN: 'sixteen chars or more' }, 'Invalid configuration: METRICS_TOKEN must be printable ASCII without spaces (it is sent in an Authorization header)'],
    [{ SHUTDOWN_DELAY_SECONDS: '301' }, 'Invalid configuration: SHUTDOWN_DELAY_SECONDS must be 0 to 300'],
    [{ SHUTDOWN_DELAY_SECONDS: 'soon' }, 'Invalid configuration: SHUTDOWN_DELAY_SECONDS must be a number of seconds'],
    [{ LOG_FORMAT: 'text' }, 'Invalid configuration: LOG_FORMAT must be pretty or json'],
    [{ LOG_FORMAT: 'JSON' }, 'Invalid configuration: LOG_FORMAT must be pretty or json'],
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a port number'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be 1-65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://'],
    [{ DEMO: 'maybe' }, 'Invalid configuration: DEMO must be one of true, false, 1, 0, yes, no, on, off'],
    [{ SESSION_TTL: 'forever' }, "Invalid configuration: SESSION_TTL must be a duration such as '12h' or '7d'"],
    [{ APP_TIMEZONE: 'Mars/Olympus' }, 'Invalid configuration: APP_TIMEZONE must be an IANA time zone such as Asia/Kolkata'],
    [{ COF_ALERT_THRESHOLD: 'high' }, 'Invalid configuration: COF_ALERT_THRESHOLD must be a number such as 0.25'],
    [{ COF_ALERT_THRESHOLD: '1.5' }, 'Invalid configuration: COF_ALERT_THRESHOLD must be between 0 and 1'],
    [{ REPORT_RETENTION_DAYS: '0' }, 'Invalid configuration: REPORT_RETENTION_DAYS must be 1 to 365'],
    [{ ADMIN_EMPLOYEE_ID: 'ADM9' }, 'Invalid configuration: ADMIN_PASSWORD is required when ADMIN_EMPLOYEE_ID is set'],
    [{ ADMIN_EMPLOYEE_ID: 'ADM9', ADMIN_PASSWORD: 'short' }, 'Invalid configuration: ADMIN_PASSWORD must be at least 8 characters'],
  ])('stops on %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

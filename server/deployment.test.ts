/**
 * The container image and the several-instance set-up (Dockerfile, compose.yaml,
 * deploy/Caddyfile, .env.example) against the code. These machines have no container runtime:
 * the image is not built and compose is not run here, so this reads the files and checks what
 * can be checked without one: they parse, every setting they give is one the server reads and
 * every setting without a default is given, the start command names the entry the build makes,
 * the image carries what the server reads at run time, and the health checks and the proxy
 * name routes and services that exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envSchema, loadConfig, type SettingName } from './config.js';
import { settingReferences } from './config-reference.js';
import { DOCS_DIR, FONTS_DIR, MIGRATIONS_DIR, PROJECT_ROOT, WEB_DIST_DIR } from './paths.js';
import { buildTestApp, type TestApp } from './test/build-test-app.js';
import {
  caddyReverseProxies,
  dependsOn,
  environmentOf,
  execForm,
  interpolate,
  mountsOf,
  parseCompose,
  parseDockerfile,
  parseDotEnv,
  referencesIn,
  type ComposeService,
  type Stage,
} from './test/deployment-files.js';

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
const DOCKERFILE_TEXT = read('Dockerfile');
const COMPOSE_TEXT = read('compose.yaml');
const CADDYFILE_PATH = 'deploy/Caddyfile';
const CADDYFILE_TEXT = read(CADDYFILE_PATH);
const ENV_EXAMPLE = parseDotEnv(read('.env.example'));

const dockerfile = parseDockerfile(DOCKERFILE_TEXT);
const compose = parseCompose(COMPOSE_TEXT);
const runtime = dockerfile.stages[dockerfile.stages.length - 1] as Stage;
const stageNamed = (name: string) => dockerfile.stages.find((stage) => stage.name === name);
const instructionsOf = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);

const SETTINGS = new Set<string>(Object.keys(envSchema.shape));
const SETTINGS_WITHOUT_DEFAULT = settingReferences().filter((s) => s.default === undefined).map((s) => s.name);

/** The services built from this repository's Dockerfile: the app instances. */
const APP_SERVICES = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

/**
 * Every route the deployment files name (the image's health check, the proxy's health check,
 * anything else under /api/): each must be in the app's route table.
 */
const ROUTES_THE_DEPLOYMENT_FILES_NAME = [...new Set([DOCKERFILE_TEXT, COMPOSE_TEXT, CADDYFILE_TEXT].flatMap((text) => [...text.matchAll(/\/api\/[\w/-]*\w/g)].map((m) => m[0])))].sort();

/** The app's environment in a compose service, over the image's ENV, with .env.example filled in. */
function resolvedEnvironment(service: ComposeService): Record<string, string> {
  const given = Object.fromEntries(Object.entries(environmentOf(service)).map(([name, value]) => [name, interpolate(value, ENV_EXAMPLE)]));
  return { ...runtime.env, ...given };
}

/** Where a file or folder of the project lands in the runtime image, relative to its WORKDIR; undefined: not copied. */
function landsAt(projectPath: string): string | undefined {
  for (const copy of runtime.copies) {
    const fromStage = copy.from === undefined ? undefined : stageNamed(copy.from);
    for (const source of copy.sources) {
      // A source in the build context is a project path; one from a stage is relative to that
      // stage's WORKDIR, which holds the project (COPY . . in the build stage).
      const sourcePath = fromStage ? path.posix.relative(fromStage.workdir, path.posix.resolve(fromStage.workdir, source)) : path.posix.normalize(source).replace(/\/$/, '');
      if (projectPath !== sourcePath && !projectPath.startsWith(`${sourcePath}/`)) continue;
      const isFile = fromStage ? /\.\w+$/.test(sourcePath) : statSync(path.join(PROJECT_ROOT, sourcePath)).isFile();
      const into = copy.dest.endsWith('/') || copy.sources.length > 1;
      const target = path.posix.relative(runtime.workdir, into && isFile ? path.posix.join(copy.dest, path.posix.basename(sourcePath)) : copy.dest.replace(/\/$/, ''));
      return path.posix.join(target, path.posix.relative(sourcePath, projectPath));
    }
  }
  return undefined;
}

describe('the Dockerfile', () => {
  it('parses into a build stage, a production-dependencies stage and a runtime stage', () => {
    expect(dockerfile.stages.map((s) => s.name)).toEqual(['build', 'production-dependencies', 'runtime']);
  });

  it('runs on Node 24, the active LTS, Debian slim (glibc, for the prebuilt sharp and argon2), which package.json engines admit', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const minimum = /^>=(\d+)/.exec(engines)?.[1];
    expect(dockerfile.globalArgs.NODE_VERSION).toBe('24');
    expect(Number(dockerfile.globalArgs.NODE_VERSION)).toBeGreaterThanOrEqual(Number(minimum));
    for (const stage of dockerfile.stages) expect(stage.image).toMatch(/^node:24-[a-z]+-slim$/);
  });

  it('builds the web app and the server in the build stage, and installs only production dependencies for the runtime', () => {
    const build = stageNamed('build');
    expect(build && instructionsOf(build, 'RUN').map((i) => i.args)).toEqual(['npm ci --no-audit --no-fund', 'npm run build']);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.build).toBe('npm run build:web && npm run build:server');
    const dependencies = stageNamed('production-dependencies');
    expect(dependencies && instructionsOf(dependencies, 'RUN').map((i) => i.args).join(' ')).toMatch(/npm ci --omit=dev/);
  });

  it('starts node on the server entry the build makes (package.json start and tsconfig.server.json) and carries it', () => {
    const tsconfig = JSON.parse(read('tsconfig.server.json')) as { compilerOptions: { outDir: string; rootDir: string } };
    const entry = path.posix.join(tsconfig.compilerOptions.outDir, path.posix.relative(tsconfig.compilerOptions.rootDir, 'server/main.ts')).replace(/\.ts$/, '.js');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toContain(`node ${entry}`);
    expect(instructionsOf(runtime, 'ENTRYPOINT')).toEqual([]);
    const [cmd, ...more] = instructionsOf(runtime, 'CMD');
    expect(more).toEqual([]);
    expect(execForm(cmd?.args ?? 'null')).toEqual(['node', entry]);
    expect(landsAt(entry)).toBe(entry);
  });

  it('carries everything the server reads from the project at run time, where the server looks for it', () => {
    const needed = ['package.json', 'node_modules', ...[WEB_DIST_DIR, MIGRATIONS_DIR, FONTS_DIR, DOCS_DIR].map((dir) => path.relative(PROJECT_ROOT, dir))];
    for (const projectPath of needed) expect(landsAt(projectPath), projectPath).toBe(projectPath);
    // The dependencies come from the production-only stage, not the build stage's full install.
    expect(runtime.copies.find((c) => c.sources.includes('/app/node_modules'))?.from).toBe('production-dependencies');
  });

  it('installs every package the built server imports: the runtime has production dependencies only', () => {
    const { dependencies } = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    // The files tsconfig.server.json compiles: common/ and server/ without tests and their helpers.
    const built = ['common', 'server']
      .flatMap((dir) => readdirSync(path.join(PROJECT_ROOT, dir), { recursive: true, encoding: 'utf8' }).map((file) => path.posix.join(dir, file)))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && !file.startsWith('server/test/'));
    const imported = new Set<string>();
    for (const file of built) {
      // Without comments and type-only imports, which the build erases.
      const code = read(file)
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/^(import|export) type [^;]*;/gm, '');
      for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'((?:@[\w.-]+\/)?\w[\w.-]*(?:\/[\w.@-]+)*)'/gm)) {
        const specifier = match[1] ?? '';
        if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
        imported.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier));
      }
    }
    expect(imported.size).toBeGreaterThan(10);
    expect([...imported].filter((name) => !(name in dependencies)).sort()).toEqual([]);
  });

  it('copies from the build context only files that exist and .dockerignore lets through', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    for (const stage of dockerfile.stages) {
      for (const copy of stage.copies.filter((c) => c.from === undefined)) {
        for (const source of copy.sources.filter((s) => s !== '.')) {
          expect(existsSync(path.join(PROJECT_ROOT, source)), source).toBe(true);
          expect(ignored, source).not.toContain(source.split('/')[0]);
        }
      }
    }
    // A local install, build, data, backups or secrets never reach the image.
    for (const kept of ['node_modules', 'dist', 'data', 'backups', '.env', '.git']) expect(ignored).toContain(kept);
  });

  it('runs as a user other than root, with DATA_DIR and BACKUP_DIR as volumes and PORT exposed', () => {
    const users = instructionsOf(runtime, 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(root|0)(:|$)/);
    const volumes = instructionsOf(runtime, 'VOLUME').flatMap((i) => execForm(i.args));
    expect(volumes).toEqual(expect.arrayContaining([runtime.env.DATA_DIR, runtime.env.BACKUP_DIR]));
    expect(instructionsOf(runtime, 'EXPOSE').map((i) => i.args)).toEqual([runtime.env.PORT]);
  });

  it('sets only settings the server reads, and they parse', () => {
    expect(Object.keys(runtime.env).filter((name) => !SETTINGS.has(name))).toEqual([]);
    expect(loadConfig(runtime.env)).toMatchObject({ nodeEnv: 'production', port: Number(runtime.env.PORT) });
  });

  it('checks health with node itself against readiness, on the port the server listens on', () => {
    const [healthcheck] = instructionsOf(runtime, 'HEALTHCHECK');
    const command = execForm(healthcheck?.args.split(/\s+CMD\s+/)[1] ?? 'null');
    expect(command[0]).toBe('node');
    expect(command.join(' ')).toContain('process.env.PORT');
    expect(command.join(' ')).toContain('/api/ready');
  });
});

describe('compose.yaml', () => {
  it('parses, with two app instances built from the Dockerfile, a proxy, PostgreSQL and an object store', () => {
    expect(APP_SERVICES.map(([name]) => name)).toEqual(['app-1', 'app-2']);
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['proxy', 'db', 'object-store', 'bucket']));
  });

  it.each(APP_SERVICES)('%s is given only settings the server reads', (_name, service) => {
    expect(Object.keys(environmentOf(service)).filter((name) => !SETTINGS.has(name))).toEqual([]);
  });

  it.each(APP_SERVICES)('%s is given every setting that has no default', (_name, service) => {
    const given = new Set([...Object.keys(runtime.env), ...Object.keys(environmentOf(service))]);
    expect(SETTINGS_WITHOUT_DEFAULT.filter((name: SettingName) => !given.has(name))).toEqual([]);
  });

  it.each(APP_SERVICES)('%s starts with the example .env as one of several instances: PostgreSQL, the bucket, scheduled backups, one proxy', (_name, service) => {
    const config = loadConfig(resolvedEnvironment(service));
    expect(config).toMatchObject({ nodeEnv: 'production', demo: false, trustProxy: 1, blobStore: { kind: 's3' } });
    expect(config.databaseUrl).toMatch(/^postgres:\/\//);
    expect(config.backupSchedule).toBeDefined();
  });

  it('gives every instance the same settings', () => {
    const [first, ...others] = APP_SERVICES.map(([, service]) => resolvedEnvironment(service));
    for (const other of others) expect(other).toEqual(first);
  });

  it('points DATABASE_URL at the PostgreSQL service with its user, password and database', () => {
    for (const [, service] of APP_SERVICES) {
      const url = new URL(resolvedEnvironment(service).DATABASE_URL ?? '');
      const db = compose.services[url.hostname];
      expect(db, url.hostname).toBeDefined();
      const dbEnv = Object.fromEntries(Object.entries(environmentOf(db ?? {})).map(([k, v]) => [k, interpolate(v, ENV_EXAMPLE)]));
      expect({ user: url.username, password: decodeURIComponent(url.password), database: url.pathname.slice(1), port: url.port }).toEqual({
        user: dbEnv.POSTGRES_USER,
        password: dbEnv.POSTGRES_PASSWORD,
        database: dbEnv.POSTGRES_DB,
        port: '5432',
      });
      expect(dependsOn(service)[url.hostname]).toBe('service_healthy');
      expect(db?.healthcheck?.test).toBeDefined();
    }
  });

  it('points S3_ENDPOINT at the object store, whose bucket and key the bucket job makes before the apps start', () => {
    const bucketJob = compose.services.bucket ?? {};
    const jobEnv = Object.fromEntries(Object.entries(environmentOf(bucketJob)).map(([k, v]) => [k, interpolate(v, ENV_EXAMPLE)]));
    const script = [bucketJob.command ?? []].flat().join('\n');
    expect(script).toMatch(/mc mb --ignore-existing "store\/\$\$S3_BUCKET"/);
    expect(script).toMatch(/mc admin user add store "\$\$S3_ACCESS_KEY_ID" "\$\$S3_SECRET_ACCESS_KEY"/);
    for (const [, service] of APP_SERVICES) {
      const env = resolvedEnvironment(service);
      const endpoint = new URL(env.S3_ENDPOINT ?? '');
      expect(compose.services[endpoint.hostname], endpoint.hostname).toBeDefined();
      expect(script).toContain(`http://${endpoint.host}`);
      expect({ bucket: env.S3_BUCKET, key: env.S3_ACCESS_KEY_ID, secret: env.S3_SECRET_ACCESS_KEY }).toEqual({
        bucket: jobEnv.S3_BUCKET,
        key: jobEnv.S3_ACCESS_KEY_ID,
        secret: jobEnv.S3_SECRET_ACCESS_KEY,
      });
      expect(dependsOn(service).bucket).toBe('service_completed_successfully');
    }
  });

  it('makes the scheduled backups into one named volume every instance mounts at BACKUP_DIR', () => {
    const volumes = APP_SERVICES.map(([, service]) => mountsOf(service).find((m) => m.target === resolvedEnvironment(service).BACKUP_DIR)?.source);
    expect(volumes[0]).toBeTruthy();
    expect(new Set(volumes)).toEqual(new Set([volumes[0]]));
    expect(Object.keys(compose.volumes ?? {})).toContain(volumes[0]);
  });

  it('takes every password and key from .env, whose example marks each as one to change', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [variable, value] of Object.entries(environmentOf(service))) {
        if (!/PASSWORD|SECRET/.test(variable)) continue;
        const references = referencesIn(value);
        expect(references.length, `${name} ${variable}`).toBeGreaterThan(0);
        expect(references.every((r) => r.required), `${name} ${variable}: required from .env, no fallback`).toBe(true);
        for (const reference of references) expect(ENV_EXAMPLE[reference.name], reference.name).toMatch(/^CHANGE-ME-example-/);
      }
    }
  });

  it('uses every variable of .env.example, and .env.example has every variable compose requires', () => {
    const references = referencesIn(COMPOSE_TEXT);
    const required = [...new Set(references.filter((r) => r.required).map((r) => r.name))];
    expect(required.filter((name) => !(name in ENV_EXAMPLE))).toEqual([]);
    const used = new Set(references.map((r) => r.name));
    expect(Object.keys(ENV_EXAMPLE).filter((name) => !used.has(name))).toEqual([]);
  });
});

describe('the reverse proxy (deploy/Caddyfile)', () => {
  const proxy = Object.entries(compose.services).find(([, service]) => mountsOf(service).some((m) => m.target === '/etc/caddy/Caddyfile'));

  it('is the compose service that mounts this Caddyfile and publishes ports', () => {
    expect(proxy?.[0]).toBe('proxy');
    expect(mountsOf(proxy?.[1] ?? {}).find((m) => m.target === '/etc/caddy/Caddyfile')?.source).toBe(`./${CADDYFILE_PATH}`);
    expect(proxy?.[1].ports?.length).toBeGreaterThan(0);
  });

  it('sends requests to exactly the app services, on the port each listens on, and checks their readiness', () => {
    const proxies = caddyReverseProxies(CADDYFILE_TEXT);
    expect(proxies).toHaveLength(1);
    const instances = APP_SERVICES.map(([name, service]) => `${name}:${loadConfig(resolvedEnvironment(service)).port}`);
    expect([...(proxies[0]?.upstreams ?? [])].sort()).toEqual(instances.sort());
    expect(proxies[0]?.healthUri).toBe('/api/ready');
    for (const [name] of APP_SERVICES) expect(Object.keys(dependsOn(proxy?.[1] ?? {}))).toContain(name);
  });
});

describe('the routes the deployment files name', () => {
  const routes = new Set<string>();
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, {
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) routes.add(`${method} ${route.url}`);
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('are the ones this test expects to find', () => {
    expect(ROUTES_THE_DEPLOYMENT_FILES_NAME).toEqual(['/api/ready']);
  });

  it.each(ROUTES_THE_DEPLOYMENT_FILES_NAME)('GET %s is a route of the app', (route) => {
    expect(routes.has(`GET ${route}`), `GET ${route} is not in the route table`).toBe(true);
  });
});

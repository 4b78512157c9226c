/**
 * The feature boundaries are held by ESLint (eslint.config.js), which `npm test` runs: these
 * cases lint deliberate breaches, written as if they were files of the tree, and expect the
 * rule that must refuse each. A feature reaching another's public face is let through, so the
 * rules are exact, not merely strict.
 */
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './paths.js';

const REACH = 'import-x/no-restricted-paths';
const CYCLE = 'import-x/no-cycle';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: PROJECT_ROOT });
});

/** The rules that refuse `text` as if it were the file at `filePath` (relative to the project). */
async function refusals(filePath: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: `${PROJECT_ROOT}/${filePath}` });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

// The first lint loads the config and the TypeScript resolver, seconds on a busy machine.
describe('the feature boundaries', { timeout: 60_000 }, () => {
  it("refuse a server feature reaching into another feature's files", async () => {
    const text = "import { listUsers } from '../users/repository.js';\nexport const users = listUsers;\n";
    expect(await refusals('server/features/curves/boundary-probe.ts', text)).toEqual([REACH]);
  });

  it("let a server feature use another feature's public face", async () => {
    const text = "import { createUserService } from '../users/index.js';\nexport const users = createUserService;\n";
    expect(await refusals('server/features/curves/boundary-probe.ts', text)).toEqual([]);
  });

  it("refuse the app and shared server code reaching into a feature's files", async () => {
    const text = "import { userRoutes } from './features/users/routes.js';\nexport const routes = userRoutes;\n";
    expect(await refusals('server/boundary-probe.ts', text)).toEqual([REACH]);
  });

  it('refuse a cycle between server features, even through their public faces', async () => {
    // The register's import uses the stations' presenter: the stations using the register closes a loop.
    const text = "import { registerFeature } from '../register/index.js';\nexport const register = registerFeature;\n";
    expect(await refusals('server/features/stations/presenter.ts', text)).toContain(CYCLE);
  });

  it("refuse a web feature reaching into another feature's files, admin views included", async () => {
    const reach = "import { curvesQuery } from '../inspection-flow/api/reference-data.js';\nexport const query = curvesQuery;\n";
    expect(await refusals('web/src/features/schedule/boundary-probe.ts', reach)).toEqual([REACH]);
    const adminReach = "import { recordsApi } from '../records/records-api.js';\nexport const api = recordsApi;\n";
    expect(await refusals('web/src/features/admin/reports/boundary-probe.ts', adminReach)).toEqual([REACH]);
  });

  it('refuse a cycle in the web app', async () => {
    const text = "import { useCurveSchedules } from './index.js';\nexport const schedules = useCurveSchedules;\n";
    expect(await refusals('web/src/features/schedule/curve-schedule.ts', text)).toContain(CYCLE);
  });

  it('refuse shared code importing from the server or the web app', async () => {
    const text = "import { AppError } from '../../server/app-error.js';\nexport const error = AppError;\n";
    expect(await refusals('common/rules/boundary-probe.ts', text)).toEqual([REACH]);
  });
});

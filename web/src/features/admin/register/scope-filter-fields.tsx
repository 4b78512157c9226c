import { useLingui } from '@lingui/react/macro';
import { DIVISIONS } from '../../../../../common/constants.js';
import { FilterSelect } from '../../../components/ui/filter-select.js';
import { useRegisterFilters } from './register-list.js';

/** The division, section and SSE a view is narrowed to: '' means "any". */
export interface Scope {
  division: string;
  section: string;
  sse: string;
}

const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** A choice named by the address but not (yet) in the lists still shows as chosen. */
const withChosen = (options: string[], chosen: string) => (chosen !== '' && !options.includes(chosen) ? [chosen, ...options] : options);

/**
 * A filter form's division, section and SSE lists, the sections and SSEs the register holds
 * for the division. A Client's division is theirs: shown, not chosen.
 */
export function ScopeFilterFields({
  idPrefix,
  scope,
  divisionFixed,
  onChange,
}: {
  idPrefix: string;
  scope: Scope;
  /** A Client's division, shown instead of the division list; null for Admins. */
  divisionFixed: string | null;
  onChange: (changes: Partial<Scope>) => void;
}) {
  const { t } = useLingui();
  const lists = useRegisterFilters(scope.division);
  const sections = [...new Set((lists.data?.sections ?? []).map((s) => s.section))].sort(byName);
  const sses = [...(lists.data?.sses ?? [])].sort(byName);
  return (
    <>
      {divisionFixed === null ? (
        <FilterSelect
          id={`${idPrefix}-division`}
          label={t`Division/Railway`}
          value={scope.division}
          // A new division's sections and SSEs are other ones.
          onChange={(division) => onChange({ division, section: '', sse: '' })}
          all={{ value: '', label: t`All divisions` }}
          options={withChosen([...DIVISIONS], scope.division)}
        />
      ) : (
        <div>
          <p className="text-base font-semibold text-slate-900">{t`Division`}</p>
          <p className="mt-1 flex min-h-12 items-center text-base text-slate-900">{divisionFixed}</p>
        </div>
      )}
      <FilterSelect
        id={`${idPrefix}-section`}
        label={t`Section`}
        value={scope.section}
        onChange={(section) => onChange({ section })}
        all={{ value: '', label: t`All sections` }}
        options={withChosen(sections, scope.section)}
      />
      <FilterSelect
        id={`${idPrefix}-sse`}
        label={t`SSE`}
        value={scope.sse}
        onChange={(sse) => onChange({ sse })}
        all={{ value: '', label: t`All SSEs` }}
        options={withChosen(sses, scope.sse)}
      />
    </>
  );
}

import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { type OpenApiAccess, type OpenApiDocument, type OpenApiOperation, openApiDocumentSchema } from '../../../../../common/schemas/api-docs.js';
import { buttonClasses } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { failureText } from '../../../lib/api-failure.js';
import { cn } from '../../../lib/cn.js';
import { roleLabel } from '../../../lib/role-label.js';
import { type OutlineNode, outline } from './schema-outline.js';

export const OPENAPI_URL = '/api/openapi.json';
const OPENAPI_QUERY_KEY = [OPENAPI_URL] as const;

interface Operation {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

/** The operations by tag, in the document's order (the app's feature order). */
function groupsOf(document: OpenApiDocument): Array<{ tag: string; operations: Operation[] }> {
  const groups = new Map<string, Operation[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags[0] ?? '';
      groups.set(tag, [...(groups.get(tag) ?? []), { method: method.toUpperCase(), path, operation }]);
    }
  }
  return [...groups].map(([tag, operations]) => ({ tag, operations }));
}

const anchorOf = (text: string) => `api-${text.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

const METHOD_COLOURS: Record<string, string> = {
  GET: cn('bg-sky-100 text-sky-900'),
  POST: cn('bg-emerald-100 text-emerald-900'),
  PUT: cn('bg-amber-100 text-amber-900'),
  DELETE: cn('bg-red-100 text-red-900'),
};

function MethodBadge({ method }: { method: string }) {
  return <span className={cn('inline-block min-w-16 rounded px-2 py-0.5 text-center font-mono text-sm font-bold', METHOD_COLOURS[method] ?? 'bg-slate-200 text-slate-900')}>{method}</span>;
}

/** Who may call an operation, in the reader's language. */
function AccessRule({ access }: { access: OpenApiAccess }) {
  const { t } = useLingui();
  switch (access.kind) {
    case 'public':
      return <>{t`Public: no sign-in needed`}</>;
    case 'signed-in':
      return <>{t`Any signed-in user`}</>;
    case 'roles': {
      const roles = access.roles.map(roleLabel).join(', ');
      return <>{t`Signed-in users with the role: ${roles}`}</>;
    }
    case 'owner':
      return <>{t`Owners only (Admins listed in OWNER_EMPLOYEE_IDS)`}</>;
  }
}

/** One field of a schema outline and, indented under it, its fields. */
function OutlineItem({ node }: { node: OutlineNode }) {
  const { t } = useLingui();
  const values = node.values?.map((value) => JSON.stringify(value)).join(', ');
  const type = node.choice ? t`one of` : node.types[0] === 'array' ? t`list of` : node.types.length > 0 ? node.types.join(' | ') : t`any value`;
  return (
    <li className="[overflow-wrap:anywhere]">
      {node.name !== undefined ? <code className="font-semibold text-slate-900">{node.name === '*' ? t`(any name)` : node.name}</code> : null}{' '}
      <span className="text-slate-700">{type}</span>
      {node.nullable ? <span className="text-slate-700">{` · ${t`or null`}`}</span> : null}
      {node.name !== undefined && node.name !== '*' ? <span className="text-slate-700">{` · ${node.required ? t`required` : t`optional`}`}</span> : null}
      {values ? <span className="text-slate-700">{` · ${t`values: ${values}`}`}</span> : null}
      {node.limits.length > 0 ? <span className="font-mono text-xs text-slate-700">{` · ${node.limits.join(', ')}`}</span> : null}
      {node.description ? <p className="text-sm text-slate-700">{node.description}</p> : null}
      {node.children.length > 0 ? (
        <ul className="ml-3 border-l-2 border-slate-200 pl-3">
          {node.children.map((child, index) => (
            <OutlineItem key={`${child.name ?? ''}-${index}`} node={child} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function SchemaOutline({ schema, components }: { schema: unknown; components: Record<string, unknown> }) {
  const root = outline(schema, components);
  // An object's fields are the outline; anything else is shown as itself.
  const items = root.types[0] === 'object' && !root.choice ? root.children : [root];
  return (
    <ul className="space-y-1 text-sm">
      {items.map((node, index) => (
        <OutlineItem key={`${node.name ?? ''}-${index}`} node={node} />
      ))}
    </ul>
  );
}

function OperationDetails({ method, path, operation, components }: Operation & { components: Record<string, unknown> }) {
  const { t } = useLingui();
  const parameters = operation.parameters ?? [];
  const requestTypes = Object.entries(operation.requestBody?.content ?? {});
  const answers = Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b));
  const successes = answers.filter(([status]) => status.startsWith('2'));
  const failures = answers.filter(([status]) => !status.startsWith('2'));
  return (
    <details className="rounded-lg border border-slate-300 bg-white" id={operation.operationId}>
      <summary className="flex min-h-11 cursor-pointer flex-wrap items-center gap-2 px-3 py-2">
        <MethodBadge method={method} />
        <code className="font-mono text-sm font-semibold break-all text-slate-900">{path}</code>
        <span className="w-full text-sm text-slate-700">{operation.summary}</span>
      </summary>
      <div className="space-y-3 border-t border-slate-200 px-3 py-3">
        <p className="text-sm">
          <span className="font-semibold">{t`Who may call it`}: </span>
          <AccessRule access={operation['x-access']} />
        </p>
        {parameters.length > 0 ? (
          <section aria-label={t`Parameters of ${method} ${path}`}>
            <h4 className="text-sm font-bold">{t`Parameters`}</h4>
            <ul className="space-y-1 text-sm">
              {parameters.map((parameter) => {
                const where = parameter.in === 'path' ? t`in the path` : parameter.in === 'query' ? t`in the query` : parameter.in;
                return (
                  <li key={`${parameter.in}-${parameter.name}`}>
                    <span className="text-slate-700">{where}: </span>
                    <ul className="inline">
                      <OutlineItem node={{ ...outline(parameter.schema, components, parameter.name, parameter.required === true) }} />
                    </ul>
                  </li>
                );
              })}
            </ul>
          </section>
        ) : null}
        {requestTypes.map(([type, media]) => (
          <section key={type} aria-label={t`Request body of ${method} ${path}`}>
            <h4 className="text-sm font-bold">
              {t`Request body`} <code className="font-mono text-xs font-normal">{type}</code>
            </h4>
            <SchemaOutline schema={media.schema} components={components} />
          </section>
        ))}
        {successes.map(([status, answer]) => (
          <section key={status} aria-label={t`Answer ${status} of ${method} ${path}`}>
            <h4 className="text-sm font-bold">
              {t`Answer ${status}`}{' '}
              {Object.keys(answer.content ?? {}).map((type) => (
                <code key={type} className="mr-1 font-mono text-xs font-normal">
                  {type}
                </code>
              ))}
            </h4>
            {answer.content?.['application/json'] ? <SchemaOutline schema={answer.content['application/json'].schema} components={components} /> : null}
          </section>
        ))}
        {failures.length > 0 ? (
          <section aria-label={t`Errors of ${method} ${path}`}>
            <h4 className="text-sm font-bold">{t`Errors`}</h4>
            <ul className="space-y-1 text-sm">
              {failures.map(([status, answer]) => (
                <li key={status} className="[overflow-wrap:anywhere]">
                  <span className="font-semibold">{status}</span> <code className="font-mono text-xs">{answer.description}</code>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </details>
  );
}

/**
 * The API reference: every operation of the OpenAPI document the server makes from its route
 * table, grouped as the document tags them, each opening to who may call it, what it takes and
 * what it answers, with the document itself to download.
 */
export function ApiReferenceView() {
  const { t } = useLingui();
  const document = useQuery({
    queryKey: OPENAPI_QUERY_KEY,
    select: (body: unknown) => openApiDocumentSchema.parse(body),
    // The document changes only with a new version of the server.
    staleTime: Infinity,
  });

  if (document.isPending) return <p className="text-base text-slate-700">{t`Loading the API reference...`}</p>;
  if (document.isError) {
    return (
      <p role="alert" className="text-base font-medium text-red-700">
        {failureText(t`Failed to load the API reference`, document.error)}
      </p>
    );
  }
  const groups = groupsOf(document.data);
  const components = document.data.components?.schemas ?? {};
  const count = groups.reduce((sum, group) => sum + group.operations.length, 0);
  const { version } = document.data.info;
  return (
    <>
      <Card aria-labelledby="api-document-title">
        <CardTitle id="api-document-title">{t`OpenAPI document`}</CardTitle>
        <CardDescription>
          {plural(count, { one: `API version ${version}: # operation.`, other: `API version ${version}: # operations.` })}{' '}
          <Trans>Each names who may call it, what it takes, what it answers and the error codes it can answer.</Trans>
        </CardDescription>
        <a href={OPENAPI_URL} download="openapi.json" className={buttonClasses('outline', 'default', 'mt-3 w-full sm:w-auto')}>
          {t`Download the OpenAPI document (JSON)`}
        </a>
      </Card>
      <nav aria-label={t`API groups`}>
        <ul className="flex flex-wrap gap-2">
          {groups.map(({ tag }) => (
            <li key={tag}>
              <a href={`#${anchorOf(tag)}`} className={buttonClasses('ghost', 'sm', 'border border-slate-300')}>
                {tag}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map(({ tag, operations }) => (
        <section key={tag} aria-labelledby={anchorOf(tag)} className="space-y-2">
          <h3 id={anchorOf(tag)} className="text-lg font-bold text-slate-900">
            {tag}
          </h3>
          {operations.map((operation) => (
            <OperationDetails key={`${operation.method} ${operation.path}`} {...operation} components={components} />
          ))}
        </section>
      ))}
    </>
  );
}

import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { DIVISIONS } from '../../../../common/constants.js';
import { FilterSelect } from '../../components/ui/filter-select.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { MachineProgressCard } from '../machine-dashboard/index.js';
import { ActionCountsCard } from './actions/index.js';
import type { AdminView, ViewBodyProps } from './admin-views.js';
import { OwnerDocumentsCard } from './documents/index.js';
import { FileToolsCard } from './file-tools/index.js';
import { DataSummaryCard } from './records/index.js';
import { RegisterSheetsCard } from './register/index.js';
import { ScheduleAtAGlance } from './reports/index.js';
import { ViewTiles } from './view-tiles.js';

// The bodies of the three menu views: their tiles, and the cards that live beside them.

/** The way to the API reference (the spec's menu keeps its three tiles); the reference itself loads when opened. */
function ApiReferenceCard({ goTo }: { goTo: (view: AdminView) => void }) {
  const { t } = useLingui();
  return (
    <Card aria-labelledby="api-reference-card-title">
      <CardTitle id="api-reference-card-title">{t`API Reference`}</CardTitle>
      <CardDescription>
        {t`Every route of this app's API, with who may call it, what it takes and what it answers: for the IT centre and for other systems that connect to it.`}
      </CardDescription>
      <Button variant="outline" className="mt-3 w-full sm:w-auto" onClick={() => goTo('api-reference')}>
        {t`Open the API Reference`}
      </Button>
    </Card>
  );
}

export function AdminMenu({ user, goTo, tiles }: ViewBodyProps) {
  const { t } = useLingui();
  return (
    <>
      <ViewTiles label={t`Admin menu`} tiles={tiles} goTo={goTo} />
      {/* The requirement documents are the owner's. */}
      {user.isOwner ? <OwnerDocumentsCard /> : null}
      <ApiReferenceCard goTo={goTo} />
    </>
  );
}

export function DataManagement({ goTo, tiles }: ViewBodyProps) {
  const { t } = useLingui();
  return (
    <>
      <ViewTiles label={t`Data management`} tiles={tiles} goTo={goTo} />
      <DataSummaryCard />
      <RegisterSheetsCard />
      <FileToolsCard />
    </>
  );
}

export function Reports({ user, goTo, tiles }: ViewBodyProps) {
  const { t } = useLingui();
  const isClient = user.role === 'Client';
  const [division, setDivision] = useState('all');
  return (
    <>
      {isClient ? (
        <Card aria-labelledby="division-access-title">
          <CardTitle id="division-access-title">{t`Division access`}</CardTitle>
          <p className="mt-1 text-base">{user.divisionAccess ?? t`No division assigned`}</p>
        </Card>
      ) : (
        <FilterSelect
          id="progress-division"
          label={t`Division`}
          className="max-w-xs"
          value={division}
          onChange={setDivision}
          all={{ value: 'all', label: t`All divisions` }}
          options={DIVISIONS}
        />
      )}
      <MachineProgressCard division={isClient ? (user.divisionAccess ?? 'all') : division} />
      <ViewTiles label={t`Report generators`} tiles={tiles} goTo={goTo} />
      {/* A Client's counts are their division's: the server answers no other. */}
      <ActionCountsCard division={isClient ? '' : division} />
      <ScheduleAtAGlance division={isClient ? 'all' : division} onOpenReport={() => goTo('curve-maintenance')} />
    </>
  );
}

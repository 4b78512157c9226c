import { type ReactNode, useState } from 'react';
import type { PublicUser } from '../../../../common/schemas/auth.js';
import { DIVISIONS } from '../../../../common/constants.js';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { cn } from '../../lib/cn.js';
import { type AdminView, REPORT_VIEWS, VIEW_TITLES } from './admin-views.js';
import { MachineDashboardManagement, MachineProgressCard } from '../machine-dashboard/index.js';
import { OwnerDocumentsCard } from './documents/index.js';
import { FileToolsCard } from './file-tools/index.js';
import { DataSummaryCard, RecordsView } from './records/index.js';
import { CurveMaintenanceView, InspectionReportsView, ScheduleAtAGlance, ServiceReportsView, SseReportsView } from './reports/index.js';
import { CurveDetailsView, RegisterSheetsCard, StationDetailsView } from './register/index.js';
import { FilterSelect } from '../../components/ui/filter-select.js';
import { UserManagement } from './user-management.js';

type GoTo = (view: AdminView) => void;

/** A large tappable card that opens another view. */
function ViewTile({ title, description, onOpen }: { title: string; description: string; onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className={cn(
        'flex min-h-20 w-full flex-col items-start gap-1 rounded-xl border-2 border-slate-300 bg-white p-4 text-left shadow-sm',
        'hover:border-brand-700 hover:bg-slate-50 focus-visible:border-brand-700',
      )}
    >
      <span className="text-lg font-bold text-slate-900">{title}</span>
      <span className="text-sm text-slate-700">{description}</span>
    </button>
  );
}

function TileGrid({ label, children }: { label: string; children: ReactNode }) {
  return (
    <nav aria-label={label}>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">{children}</ul>
    </nav>
  );
}

/** The honest body of a view a later release fills: never made-up data. */
function ComingSoon({ view }: { view: AdminView }) {
  return (
    <Card>
      <CardDescription className="text-base">{`The ${VIEW_TITLES[view]} view arrives in a coming release.`}</CardDescription>
    </Card>
  );
}

function AdminMenu({ user, goTo }: { user: PublicUser; goTo: GoTo }) {
  return (
    <>
      <TileGrid label="Admin menu">
        <li>
          <ViewTile
            title="Data Management"
            description="Inspection records, images, stations and curves"
            onOpen={() => goTo('data-management')}
          />
        </li>
        <li>
          <ViewTile title="Reports & Analytics" description="Installation progress and reports" onOpen={() => goTo('reports')} />
        </li>
        <li>
          <ViewTile title="User Management" description="Add users and reset passwords" onOpen={() => goTo('user-management')} />
        </li>
      </TileGrid>
      {/* The requirement documents are the owner's. */}
      {user.isOwner ? <OwnerDocumentsCard /> : null}
    </>
  );
}

function DataManagement({ user, goTo }: { user: PublicUser; goTo: GoTo }) {
  return (
    <>
      <TileGrid label="Data management">
        <li>
          <ViewTile
            title="Inspection Records & Images"
            description="Browse inspection records and their photos"
            onOpen={() => goTo('records-management')}
          />
        </li>
        <li>
          <Card className="flex h-full flex-col gap-3">
            <div>
              <CardTitle>Station & Curve Data</CardTitle>
              <CardDescription>Curve and station reference data</CardDescription>
            </div>
            <div className="grid grid-cols-2 gap-2">
              <button
                type="button"
                onClick={() => goTo('curve-details')}
                className="min-h-12 rounded-lg border-2 border-slate-700 bg-white px-3 font-semibold text-slate-900 hover:bg-slate-100"
              >
                Curve Details
              </button>
              <button
                type="button"
                onClick={() => goTo('station-details')}
                className="min-h-12 rounded-lg border-2 border-slate-700 bg-white px-3 font-semibold text-slate-900 hover:bg-slate-100"
              >
                Station Details
              </button>
            </div>
          </Card>
        </li>
        {user.isOwner ? (
          <li>
            <ViewTile
              title="Machine Dashboard"
              description="Update machine rollout progress"
              onOpen={() => goTo('machine-dashboard-management')}
            />
          </li>
        ) : null}
      </TileGrid>
      <DataSummaryCard />
      <RegisterSheetsCard />
      <FileToolsCard />
    </>
  );
}

const REPORT_DESCRIPTIONS: Record<(typeof REPORT_VIEWS)[number], string> = {
  'inspection-reports': 'Inspection reports by division and service type',
  'curve-maintenance': 'Curves due for service or CoF measurement',
  'sse-reports': 'CoF measurements by SSE',
  'service-reports': 'Service inspection reports',
};

function Reports({ user, goTo }: { user: PublicUser; goTo: GoTo }) {
  const isClient = user.role === 'Client';
  const [division, setDivision] = useState('all');
  return (
    <>
      {isClient ? (
        <Card aria-labelledby="division-access-title">
          <CardTitle id="division-access-title">Division access</CardTitle>
          <p className="mt-1 text-base">{user.divisionAccess ?? 'No division assigned'}</p>
        </Card>
      ) : (
        <FilterSelect
          id="progress-division"
          label="Division"
          className="max-w-xs"
          value={division}
          onChange={setDivision}
          all={{ value: 'all', label: 'All divisions' }}
          options={DIVISIONS}
        />
      )}
      <MachineProgressCard division={isClient ? (user.divisionAccess ?? 'all') : division} />
      <TileGrid label="Report generators">
        {REPORT_VIEWS.map((report) => (
          <li key={report}>
            <ViewTile title={VIEW_TITLES[report]} description={REPORT_DESCRIPTIONS[report]} onOpen={() => goTo(report)} />
          </li>
        ))}
      </TileGrid>
      <ScheduleAtAGlance division={isClient ? 'all' : division} onOpenReport={() => goTo('curve-maintenance')} />
    </>
  );
}

export function AdminViewBody({ view, user, goTo }: { view: AdminView; user: PublicUser; goTo: GoTo }) {
  switch (view) {
    case 'menu':
      return <AdminMenu user={user} goTo={goTo} />;
    case 'data-management':
      return <DataManagement user={user} goTo={goTo} />;
    case 'reports':
      return <Reports user={user} goTo={goTo} />;
    case 'records-management':
      return <RecordsView />;
    case 'user-management':
      return <UserManagement />;
    case 'curve-details':
      return <CurveDetailsView />;
    case 'station-details':
      return <StationDetailsView />;
    case 'curve-maintenance':
      return <CurveMaintenanceView user={user} />;
    case 'inspection-reports':
      return <InspectionReportsView user={user} />;
    case 'sse-reports':
      return <SseReportsView user={user} />;
    case 'service-reports':
      return <ServiceReportsView user={user} />;
    case 'machine-dashboard-management':
      return <MachineDashboardManagement onDone={() => goTo('data-management')} />;
    default:
      return <ComingSoon view={view} />;
  }
}

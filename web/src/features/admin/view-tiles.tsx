import { useLingui } from '@lingui/react';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { cn } from '../../lib/cn.js';
import type { AdminView, TileGroup, ViewTile } from './admin-views.js';

/** A large tappable card that opens another view. */
function OwnTile({ title, description, onOpen }: { title: string; description: string; onOpen: () => void }) {
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

/** One card for the views of a group, a button each (Station & Curve Data: Curve Details, Station Details). */
function GroupTile({ group, members, goTo }: { group: TileGroup; members: readonly ViewTile[]; goTo: (view: AdminView) => void }) {
  const { i18n } = useLingui();
  return (
    <Card className="flex h-full flex-col gap-3">
      <div>
        <CardTitle>{i18n._(group.title)}</CardTitle>
        <CardDescription>{i18n._(group.description)}</CardDescription>
      </div>
      <div className="grid grid-cols-2 gap-2">
        {members.map((member) => (
          <button
            key={member.view}
            type="button"
            onClick={() => goTo(member.view)}
            className="min-h-12 rounded-lg border-2 border-slate-700 bg-white px-3 font-semibold text-slate-900 hover:bg-slate-100"
          >
            {i18n._(member.title)}
          </button>
        ))}
      </div>
    </Card>
  );
}

/** The tiles a menu view offers, as a labelled navigation grid. */
export function ViewTiles({ label, tiles, goTo }: { label: string; tiles: readonly ViewTile[]; goTo: (view: AdminView) => void }) {
  const { i18n } = useLingui();
  const membersOf = (group: TileGroup) => tiles.filter(({ tile }) => 'group' in tile && tile.group === group);
  // A group's card stands where its first view would.
  const shown = tiles.filter(({ tile, view }) => !('group' in tile) || membersOf(tile.group)[0]?.view === view);
  return (
    <nav aria-label={label}>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {shown.map(({ view, title, tile }) => (
          <li key={view}>
            {'group' in tile ? (
              <GroupTile group={tile.group} members={membersOf(tile.group)} goTo={goTo} />
            ) : (
              <OwnTile title={i18n._(title)} description={i18n._(tile.description)} onOpen={() => goTo(view)} />
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

// How each plan action looks on the code and in the Runs view: the gutter icon, the theme colour of the overview
// ruler and of tree icons, and a codicon. No `vscode` import, so it is unit-tested with node:test.
//
// Gutter icons are images (an SVG cannot take a theme colour), so each action has one per light/dark theme, drawn in
// the colour the default themes give the theme colour named here (media/plan-<action>-<theme>.svg), and a dimmed
// twin for a stale overlay (media/plan-<action>-stale-<theme>.svg). The overview ruler takes the theme colour itself.
import type { PlanChangeAction } from '../../../server/src/protocol';

export const planActions: readonly PlanChangeAction[] = ['create', 'update', 'replace', 'delete', 'read', 'no-op'];

export interface ActionLook {
  /** Terraform's own symbol for the action (what the icon draws). */
  symbol: string;
  /** A theme colour id, for the overview ruler and tree icons. */
  themeColor: string;
  /** What that colour is in the default dark and light themes: the icons are drawn in it. */
  dark: string;
  light: string;
  /** A codicon id for the Runs view. */
  codicon: string;
  /** Whether the block gets a mark in the overview ruler (the ruler is for finding changes: not for no-ops). */
  inRuler: boolean;
}

const added = { themeColor: 'gitDecoration.addedResourceForeground', dark: '#81b88b', light: '#587c0c' };
const modified = { themeColor: 'gitDecoration.modifiedResourceForeground', dark: '#e2c08d', light: '#895503' };
const deleted = { themeColor: 'gitDecoration.deletedResourceForeground', dark: '#c74e39', light: '#ad0707' };
const neutral = { themeColor: 'gitDecoration.ignoredResourceForeground', dark: '#8c8c8c', light: '#8e8e90' };

const looks: Record<PlanChangeAction, ActionLook> = {
  create: { symbol: '+', ...added, codicon: 'diff-added', inRuler: true },
  update: { symbol: '~', ...modified, codicon: 'diff-modified', inRuler: true },
  replace: { symbol: '-/+', ...deleted, codicon: 'arrow-swap', inRuler: true },
  delete: { symbol: '-', ...deleted, codicon: 'diff-removed', inRuler: true },
  read: { symbol: '<=', ...neutral, codicon: 'book', inRuler: true },
  'no-op': { symbol: '·', ...neutral, codicon: 'circle-small', inRuler: false },
};

/** The look of an action; an action this client does not know (a newer server) looks like a no-op, never an error. */
export function actionLook(action: string): ActionLook {
  return looks[action as PlanChangeAction] ?? looks['no-op'];
}

/** The known action an arbitrary string stands for (unknown ones fold into `no-op`). */
export function knownAction(action: string): PlanChangeAction {
  return (planActions as readonly string[]).includes(action) ? (action as PlanChangeAction) : 'no-op';
}

/** One decoration type per action and freshness: `create`, `create-stale`, … */
export type DecorationKey = `${PlanChangeAction}` | `${PlanChangeAction}-stale`;

export function decorationKey(action: string, stale: boolean): DecorationKey {
  const known = knownAction(action);
  return stale ? `${known}-stale` : known;
}

export const decorationKeys: readonly DecorationKey[] = planActions.flatMap((action) => [action, `${action}-stale` as DecorationKey]);

/** The gutter icon's file, relative to the extension's root. */
export function gutterIconFile(key: DecorationKey, theme: 'dark' | 'light'): string {
  return `media/plan-${key}-${theme}.svg`;
}

/** A stale overlay's ruler mark: the default theme's colour at 40% (a theme colour cannot be made translucent). */
export function staleRulerColor(action: PlanChangeAction, theme: 'dark' | 'light'): string {
  return `${actionLook(action)[theme]}66`;
}

/** "-/+ replace" as the Runs view's description says it (with the reason, when the plan gives one). */
export function actionDescription(action: string, reason?: string): string {
  const look = actionLook(action);
  const words = action === 'no-op' ? 'no changes' : action === 'read' ? 'read' : action;
  return `${look.symbol} ${words}${reason ? ` (${reason})` : ''}`;
}

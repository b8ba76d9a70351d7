// Draws the plan overlays on the visible editors: a gutter icon on each verdict block's first line and a mark in the
// overview ruler, in the action's colour, dimmed when the overlay is stale. Redrawn when an overlay changes, an
// editor shows, or hcpTerraform.planOverlay.enabled flips.
import * as vscode from 'vscode';
import type { PlanChangeAction } from '../../../server/src/protocol';
import { marksByKey, marksFor, type VerdictMark } from './editorVerdicts';
import type { PlanOverlays } from './planOverlays';
import { actionLook, decorationKeys, gutterIconFile, staleRulerColor, type DecorationKey } from './verdictLook';

export const enabledSetting = 'planOverlay.enabled';

export function planOverlayEnabled(): boolean {
  return vscode.workspace.getConfiguration('hcpTerraform').get<boolean>(enabledSetting, true);
}

/** What the end-to-end tests read: the marks drawn per document, and an event after each drawing. */
export interface PlanDecorationsReader {
  marks(documentUri: string): VerdictMark[];
  readonly onDidRender: vscode.Event<void>;
}

export class PlanDecorations implements vscode.Disposable, PlanDecorationsReader {
  private readonly types: Map<DecorationKey, vscode.TextEditorDecorationType>;
  private readonly drawn = new Map<string, VerdictMark[]>();
  private readonly rendered = new vscode.EventEmitter<void>();
  readonly onDidRender = this.rendered.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    context: vscode.ExtensionContext,
    private readonly overlays: PlanOverlays,
  ) {
    this.types = new Map(decorationKeys.map((key) => [key, vscode.window.createTextEditorDecorationType(renderOptions(context, key))]));
    this.subscriptions = [
      overlays.onDidChange(() => this.drawAll()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.drawAll()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(`hcpTerraform.${enabledSetting}`)) return;
        // Turned back on: the server publishes again, but documents already asked about would not be asked again.
        if (planOverlayEnabled()) overlays.reset();
        else this.drawAll();
      }),
    ];
    this.drawAll();
  }

  marks(documentUri: string): VerdictMark[] {
    return this.drawn.get(documentUri) ?? [];
  }

  private drawAll(): void {
    const enabled = planOverlayEnabled();
    this.drawn.clear();
    for (const editor of vscode.window.visibleTextEditors) {
      if (enabled) void this.overlays.ensure(editor.document);
      const marks = enabled ? marksFor(editor.document.uri.toString(), this.overlays.all()) : [];
      for (const [key, group] of marksByKey(marks, decorationKeys)) {
        editor.setDecorations(this.types.get(key)!, group.map((mark) => decoration(editor.document, mark)));
      }
      if (marks.length > 0) this.drawn.set(editor.document.uri.toString(), marks);
    }
    this.rendered.fire();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    for (const type of this.types.values()) type.dispose();
    this.rendered.dispose();
  }
}

/** No hover of its own: the server's hover on the block already tells the verdict, with its instances. */
function decoration(document: vscode.TextDocument, mark: VerdictMark): vscode.DecorationOptions {
  const line = Math.min(mark.line, Math.max(0, document.lineCount - 1));
  return { range: new vscode.Range(line, 0, line, 0) };
}

function renderOptions(context: vscode.ExtensionContext, key: DecorationKey): vscode.DecorationRenderOptions {
  const stale = key.endsWith('-stale');
  const action = (stale ? key.slice(0, -'-stale'.length) : key) as PlanChangeAction;
  const look = actionLook(action);
  const themed = (theme: 'dark' | 'light'): vscode.ThemableDecorationRenderOptions => ({
    gutterIconPath: vscode.Uri.joinPath(context.extensionUri, gutterIconFile(key, theme)),
    gutterIconSize: 'contain',
    ...(look.inRuler ? { overviewRulerColor: stale ? staleRulerColor(action, theme) : new vscode.ThemeColor(look.themeColor) } : {}),
  });
  return {
    isWholeLine: true,
    ...(look.inRuler ? { overviewRulerLane: vscode.OverviewRulerLane.Center } : {}),
    ...themed('dark'), // high-contrast themes take these
    light: themed('light'),
    dark: themed('dark'),
  };
}

/** Every tool gortex serves, in one list (the single source for every door). */
import { analysisTools } from './analysis';
import { changeTools } from './changes';
import { verifyTools } from './verify';
import { contextTools } from './context';
import { channelTools } from './channels';
import { diagnosticsTools } from './diagnostics';
import { editTools } from './edit';
import { refactorTools } from './refactor';
import { inlineTools } from './inline';
import { moveTools } from './move';
import { facadeTools } from './facade';
import { smartTools } from './context-smart';
import { graphTools } from './graph';
import { metaTools } from './meta';
import { navigationTools } from './navigation';
import { overlayTools } from './overlay';
import { prTools } from './pr';
import { forgeTools } from './forge';
import { siblingTools } from './siblings';
import { reviewTools } from './review';
import { reviewPackTools } from './review-pack';
import { askTools } from './ask';
import { closureTools } from './context-closure';
import { artifactTools } from './artifacts';
import { memoryTools } from './memory';
import { contractTools } from './contracts';
import type { ToolDef } from './registry';
import { searchTools } from './search';
import { speculateTools } from './speculate';
import { sessionTools } from './session-tools';
import { sourceTools } from './source';
import { workspaceTools } from './workspace';

/** All tools, in a stable order. */
export const ALL_TOOLS: readonly ToolDef[] = [
  ...searchTools,
  ...navigationTools,
  ...graphTools,
  ...sourceTools,
  ...editTools,
  ...refactorTools,
  ...inlineTools,
  ...moveTools,
  ...changeTools,
  ...siblingTools,
  ...verifyTools,
  ...contextTools,
  ...smartTools,
  ...analysisTools,
  ...prTools,
  ...forgeTools,
  ...reviewTools,
  ...reviewPackTools,
  ...askTools,
  ...closureTools,
  ...artifactTools,
  ...memoryTools(),
  ...contractTools,
  ...overlayTools(),
  ...speculateTools(),
  ...diagnosticsTools(),
  ...channelTools(),
  ...sessionTools(),
  ...workspaceTools,
  ...metaTools(() => ALL_TOOLS),
] as ToolDef[];

/** The compact domain tools (`facade-v1`) over the registry. */
export const FACADE_TOOLS: readonly ToolDef[] = facadeTools(() => ALL_TOOLS);

export * from './registry';

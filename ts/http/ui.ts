/**
 * The built-in web page at `/ui`: a graph explorer, symbol search and the analyses for a user
 * without the official web UI. It serves a fixed set of files — the page (`ui/` at the package
 * root, plain HTML/JS/CSS, no build step) and the browser bundles of sigma and graphology straight
 * from node_modules — with no directory listing. The page holds no data and needs no token; its
 * data calls go to `/v1`, behind the same guard as every other client.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import express, { type Router } from 'express';
import { packageRoot } from '../support/package-root';

/** One file the page may fetch: where it is on disk and its content type. */
interface Asset {
  file: () => string;
  type: string;
}

/** The directory of a dependency's main file (`sigma` and `graphology` keep their bundles beside it). */
function distOf(pkg: string): string {
  // Their `exports` do not list the bundles, so resolve the main file and look beside it.
  return path.dirname(require.resolve(pkg));
}

const JS = 'text/javascript; charset=utf-8';

/** Every path under `/ui` that answers, and nothing else. */
const ASSETS: Record<string, Asset> = {
  '/': { file: () => path.join(packageRoot(), 'ui', 'index.html'), type: 'text/html; charset=utf-8' },
  '/app.js': { file: () => path.join(packageRoot(), 'ui', 'app.js'), type: JS },
  '/style.css': { file: () => path.join(packageRoot(), 'ui', 'style.css'), type: 'text/css; charset=utf-8' },
  '/vendor/sigma.min.js': { file: () => path.join(distOf('sigma'), 'sigma.min.js'), type: JS },
  '/vendor/graphology.umd.min.js': { file: () => path.join(distOf('graphology'), 'graphology.umd.min.js'), type: JS },
};

/**
 * The `/ui` router (mount it at `/ui`): GET/HEAD of the listed files, 404 for anything else. `/ui`
 * and `/ui/` both answer the page, which names its files by absolute paths.
 */
export function uiRouter(): Router {
  const router = express.Router();
  const send = (asset: Asset) => (_req: express.Request, res: express.Response): void => {
    let body: Buffer;
    try {
      body = fs.readFileSync(asset.file());
    } catch (error) {
      res.status(500).json({ error: 'internal', message: `the /ui page is not installed: ${(error as Error).message}` });
      return;
    }
    res
      .status(200)
      .set({
        'Content-Type': asset.type,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        // The page loads only its own files and talks only to this server.
        'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        'Referrer-Policy': 'no-referrer',
      })
      .send(body);
  };
  for (const [route, asset] of Object.entries(ASSETS)) router.get(route, send(asset));
  return router;
}

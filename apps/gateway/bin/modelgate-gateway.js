#!/usr/bin/env -S node --max-semi-space-size=8 --liftoff-only
// The installed `modelgate-gateway` command: runs the build (`pnpm build` first). A committed file
// of its own, so installing the workspace before anything is built links a file that exists.
import '../dist/main.js';

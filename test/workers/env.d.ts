// Types of the `cloudflare:test` module provided by Cloudflare's Vitest integration.
/// <reference types="@cloudflare/vitest-plugin/types" />

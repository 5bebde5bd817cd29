/**
 * Swagger UI page. Its scripts and styles are served from /swagger-ui/ as static assets
 * (copied from the swagger-ui-dist package at build time), so it works with no internet.
 */
export function swaggerUiPage(specUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Slipstream API</title>
<link rel="stylesheet" href="/swagger-ui/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/swagger-ui/swagger-ui-init.js" data-spec-url="${specUrl}"></script>
</body>
</html>`;
}

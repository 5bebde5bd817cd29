// Starts Swagger UI on the OpenAPI document named by this script tag's data-spec-url.
window.ui = SwaggerUIBundle({
  url: document.currentScript.dataset.specUrl,
  dom_id: '#swagger-ui',
  deepLinking: true,
});

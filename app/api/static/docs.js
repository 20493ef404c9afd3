// Starts Swagger UI on the API reference page; a file of its own, so the page's
// Content-Security-Policy needs no inline script.
(function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-spec-url"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    displayOperationId: true,  // the contract's names, as generated clients call them
    persistAuthorization: false,
  });
})();

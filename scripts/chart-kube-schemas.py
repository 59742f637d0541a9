"""Writes kubeconform's schema folders from the Kubernetes JSON schemas kubernetes-validate bundles.

argv: destination folder, then the Kubernetes versions (1.27.0 ...). For each version it writes
DEST/v<version>-standalone-strict/<kind>-<group>-<version>.json, the layout kubeconform's -schema-location
template names, one file per object kind (a schema with apiVersion and kind). The bundled files refer to
one shared `/api/_definitions.json` (1.3 MB) under an `$id` on kubernetes.io, which kubeconform would fetch
over HTTP and parse again for every kind; each copy instead carries the definitions it reaches under its
own `$defs` ("standalone", as kubeconform's usual schemas are). Nothing else changes: the strict schemas
forbid unknown fields.
"""
import json
import os
import re
import sys

import kubernetes_validate

REF = re.compile(r'"\$ref": "#/\$defs/([^"]+)"')


def standalone(doc, definitions):
    """doc with the definitions it reaches, directly or through others, under $defs."""
    reached, todo = {}, REF.findall(json.dumps(doc))
    while todo:
        name = todo.pop()
        if name not in reached:
            reached[name] = definitions[name]
            todo += REF.findall(json.dumps(definitions[name]))
    doc.pop("$id", None)
    doc["$defs"] = reached
    return doc


def main():
    dest = sys.argv[1]
    bundled = os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema")
    for version in sys.argv[2:]:
        src = os.path.join(bundled, f"v{version}-local-strict")
        if not os.path.isdir(src):
            sys.exit(f"kubernetes-validate {kubernetes_validate.__version__} bundles no schemas for Kubernetes {version}")
        with open(os.path.join(src, "_definitions.json")) as f:
            definitions = json.load(f)["$defs"]
        out = os.path.join(dest, f"v{version}-standalone-strict")
        os.makedirs(out, exist_ok=True)
        for file in os.listdir(src):
            if file in ("_definitions.json", "all.json"):
                continue
            with open(os.path.join(src, file)) as f:
                doc = json.loads(f.read().replace('"/api/_definitions.json#/$defs/', '"#/$defs/'))
            if not {"apiVersion", "kind"} <= set(doc.get("properties", {})):
                continue
            with open(os.path.join(out, file), "w") as f:
                json.dump(standalone(doc, definitions), f)


if __name__ == "__main__":
    main()

#!/bin/bash
# Writes Sources/DataModelTemplates/EmbeddedTemplates.swift: the text of every default template (Templates/*.mustache) as Swift
# string literals, compiled into the DataModelTemplates module. Run it after changing a template (then
# Scripts/update-golden.sh); a test fails with this command when the file no longer matches the templates.
#
#   Scripts/embed-templates.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product template-embedder >/dev/null
"$(swift build --show-bin-path)/template-embedder" Sources/DataModelTemplates/EmbeddedTemplates.swift Templates/*.mustache

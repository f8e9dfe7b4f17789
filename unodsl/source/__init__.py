"""The front end: a variant file as located YAML nodes, composed (extends/include) and schema-checked.

yaml_tree   YAML -> Node trees that remember file, line and column; input limits (E1xx)
compose     `extends:` and `include:`, shipped names, the project root
schema      JSON Schema validation with diagnostics at the offending node (E2xx)
quickschema the fast validator for files that are clean
catalog     the shipped variants and house rules, by name
"""

; import a.b.C / import a.b.* / import a.b.C as D: the dialect reads the statement's text.
(import) @import

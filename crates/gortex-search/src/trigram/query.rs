//! Query plans: a literal or a regex (its HIR) turned into an AND/OR of trigrams that narrows the
//! candidate documents; verification on the real bytes stays with the caller.

use super::*;

/// A trigram query: which documents may contain a match. `All` cannot narrow anything, `None`
/// matches no document.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TrigramQuery {
    /// No document can match.
    None,
    /// Every document may match.
    All,
    /// Documents holding this trigram.
    Tri(u32),
    /// Documents satisfying every sub-query.
    And(Vec<TrigramQuery>),
    /// Documents satisfying any sub-query.
    Or(Vec<TrigramQuery>),
}

impl TrigramQuery {
    /// Conjunction, simplified (flattened, sorted, deduplicated; `All` dropped, `None` absorbs).
    pub fn and(items: Vec<TrigramQuery>) -> TrigramQuery {
        let mut out = Vec::new();
        for q in items {
            match q {
                TrigramQuery::All => {}
                TrigramQuery::None => return TrigramQuery::None,
                TrigramQuery::And(v) => out.extend(v),
                q => out.push(q),
            }
        }
        out.sort();
        out.dedup();
        match out.len() {
            0 => TrigramQuery::All,
            1 => out.pop().expect("one item"),
            _ => TrigramQuery::And(out),
        }
    }

    /// Disjunction, simplified (flattened, sorted, deduplicated; `None` dropped, `All` absorbs).
    pub fn or(items: Vec<TrigramQuery>) -> TrigramQuery {
        let mut out = Vec::new();
        for q in items {
            match q {
                TrigramQuery::None => {}
                TrigramQuery::All => return TrigramQuery::All,
                TrigramQuery::Or(v) => out.extend(v),
                q => out.push(q),
            }
        }
        out.sort();
        out.dedup();
        match out.len() {
            0 => TrigramQuery::None,
            1 => out.pop().expect("one item"),
            _ => TrigramQuery::Or(out),
        }
    }

    /// Documents containing a literal must hold all of its trigrams; shorter literals narrow
    /// nothing.
    pub fn literal(bytes: &[u8]) -> TrigramQuery {
        if bytes.len() < 3 {
            return TrigramQuery::All;
        }
        TrigramQuery::and(trigrams(bytes).into_iter().map(TrigramQuery::Tri).collect())
    }

    /// The trigram query a regular expression's matches must satisfy, derived from its HIR:
    /// concatenations contribute their literal runs, alternations OR their branches, optional
    /// parts contribute nothing, small classes expand into alternatives.
    pub fn from_hir(hir: &Hir) -> TrigramQuery {
        let info = regex_syntax::hir::visit(hir, Planner { stack: Vec::new() }).unwrap_or(Info::any());
        info.into_query()
    }
}

impl std::fmt::Display for TrigramQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrigramQuery::None => f.write_str("none"),
            TrigramQuery::All => f.write_str("all"),
            TrigramQuery::Tri(t) => f.write_str(&trigram_text(*t)),
            TrigramQuery::And(v) | TrigramQuery::Or(v) => {
                f.write_str(if matches!(self, TrigramQuery::And(_)) {
                    "and("
                } else {
                    "or("
                })?;
                for (i, q) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{q}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// What the planner knows about a sub-expression: either the exact (lowercased) strings it can
/// match, when there are few, or a query every match satisfies.
pub(super) struct Info {
    pub(super) exact: Option<Vec<Vec<u8>>>,
    pub(super) query: TrigramQuery,
}

impl Info {
    pub(super) fn any() -> Info {
        Info {
            exact: None,
            query: TrigramQuery::All,
        }
    }

    pub(super) fn exact(mut set: Vec<Vec<u8>>) -> Info {
        set.sort();
        set.dedup();
        Info {
            exact: Some(set),
            query: TrigramQuery::All,
        }
    }

    pub(super) fn into_query(self) -> TrigramQuery {
        match self.exact {
            Some(set) => exact_query(&set),
            None => self.query,
        }
    }
}

pub(super) fn exact_query(set: &[Vec<u8>]) -> TrigramQuery {
    TrigramQuery::or(set.iter().map(|s| TrigramQuery::literal(s)).collect())
}

pub(super) fn lower(bytes: &[u8]) -> Vec<u8> {
    bytes.to_ascii_lowercase()
}

pub(super) fn cross(a: &[Vec<u8>], b: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    if a.len() * b.len() > MAX_EXACT_SET {
        return None;
    }
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            let mut s = x.clone();
            s.extend_from_slice(y);
            out.push(s);
        }
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// Walks the HIR bottom-up on the heap (regex nesting never recurses on the call stack).
pub(super) struct Planner {
    pub(super) stack: Vec<Info>,
}

impl Planner {
    pub(super) fn class(class: &Class) -> Info {
        let mut set = Vec::new();
        match class {
            Class::Unicode(c) => {
                let size: u32 = c.ranges().iter().map(|r| r.end() as u32 - r.start() as u32 + 1).sum();
                if size > MAX_CLASS_EXPANSION {
                    return Info::any();
                }
                for r in c.ranges() {
                    for cp in r.start() as u32..=r.end() as u32 {
                        if let Some(ch) = char::from_u32(cp) {
                            let mut buf = [0u8; 4];
                            set.push(lower(ch.encode_utf8(&mut buf).as_bytes()));
                        }
                    }
                }
            }
            Class::Bytes(c) => {
                let size: u32 = c
                    .ranges()
                    .iter()
                    .map(|r| u32::from(r.end()) - u32::from(r.start()) + 1)
                    .sum();
                if size > MAX_CLASS_EXPANSION {
                    return Info::any();
                }
                for r in c.ranges() {
                    for b in r.start()..=r.end() {
                        set.push(vec![b.to_ascii_lowercase()]);
                    }
                }
            }
        }
        Info::exact(set)
    }

    pub(super) fn concat(children: Vec<Info>) -> Info {
        let mut acc = Vec::new();
        let mut run: Vec<Vec<u8>> = vec![Vec::new()];
        let mut complete = true;
        for child in children {
            match child.exact {
                Some(set) => match cross(&run, &set) {
                    Some(next) => run = next,
                    None => {
                        acc.push(exact_query(&run));
                        run = set;
                        complete = false;
                    }
                },
                None => {
                    acc.push(exact_query(&run));
                    acc.push(child.query);
                    run = vec![Vec::new()];
                    complete = false;
                }
            }
        }
        if complete {
            return Info::exact(run);
        }
        acc.push(exact_query(&run));
        Info {
            exact: None,
            query: TrigramQuery::and(acc),
        }
    }

    pub(super) fn alternation(children: Vec<Info>) -> Info {
        if children.iter().all(|c| c.exact.is_some()) {
            let total: usize = children.iter().map(|c| c.exact.as_ref().map_or(0, Vec::len)).sum();
            if total <= MAX_EXACT_SET {
                return Info::exact(children.into_iter().flat_map(|c| c.exact.unwrap_or_default()).collect());
            }
        }
        Info {
            exact: None,
            query: TrigramQuery::or(children.into_iter().map(Info::into_query).collect()),
        }
    }

    pub(super) fn pop(&mut self, n: usize) -> Vec<Info> {
        let at = self.stack.len().saturating_sub(n);
        self.stack.split_off(at)
    }
}

impl Visitor for Planner {
    type Output = Info;
    type Err = ();

    fn finish(mut self) -> Result<Info, ()> {
        self.stack.pop().ok_or(())
    }

    fn visit_post(&mut self, hir: &Hir) -> Result<(), ()> {
        let info = match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Info::exact(vec![Vec::new()]),
            HirKind::Literal(lit) => Info::exact(vec![lower(&lit.0)]),
            HirKind::Class(class) => Planner::class(class),
            HirKind::Capture(_) => return Ok(()),
            HirKind::Repetition(rep) => {
                let sub = self.pop(1).pop().ok_or(())?;
                match (rep.min, rep.max) {
                    (1, Some(1)) => sub,
                    (0, Some(1)) => match sub.exact {
                        Some(mut set) if set.len() < MAX_EXACT_SET => {
                            set.push(Vec::new());
                            Info::exact(set)
                        }
                        _ => Info::any(),
                    },
                    (0, _) => Info::any(),
                    _ => Info {
                        exact: None,
                        query: sub.into_query(),
                    },
                }
            }
            HirKind::Concat(subs) => {
                let children = self.pop(subs.len());
                Planner::concat(children)
            }
            HirKind::Alternation(subs) => {
                let children = self.pop(subs.len());
                Planner::alternation(children)
            }
        };
        self.stack.push(info);
        Ok(())
    }
}

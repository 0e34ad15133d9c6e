//! The count of a final position as named rule passes over one grid of
//! what each point is ([`Kind`]), run in the order [`count`] shows:
//!
//! 1. [`seki`]: the seki dame and the chains in seki (never a pass-alive
//!    chain; an unresolved ko only when filling it is impossible, as in a
//!    double-ko seki);
//! 2. [`regions`]: each empty region is territory, dame or seki dame;
//! 3. [`seki_eyes`]: under a seki tax, the eyes of groups in seki are
//!    nobody's (Japanese Art. 8);
//! 4. [`necessary_connections`] (territory scoring, as
//!    [`CountRules::connections`] says): the points a player
//!    must fill before counting, an open ko among them, are nobody's;
//! 5. [`group_tax`]: under the group tax, two points per living group.
//!
//! Each pass is a pure function of the [`Analysis`] and the grid so far.

use crate::analysis::{Analysis, ChainId};
use crate::bits;
use crate::board::{Cell, Color, Pt};
use crate::rules::{Connections, Rules, Scoring, SekiEyeRule, Tax};

/// What a point of the final position counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A living stone (dead stones are lifted before the count: their
    /// points are empty here).
    Stone(Color),
    /// An empty point counted for this colour.
    Territory(Color),
    /// A neutral point: both colours beside its region, or neither.
    Dame,
    /// A dame of a seki: neither colour can fill it.
    SekiDame,
    /// An eye of a group in seki, which a seki tax leaves to no one.
    SekiEye,
    /// A point its owner must fill before counting (a connection the dame
    /// force, an open ko): no one's.
    ForcedConnection,
}

/// What the count needs of the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountRules {
    pub scoring: Scoring,
    pub tax: Tax,
    /// Which eyes of groups in seki the tax takes (KGS's rule takes only
    /// those every chain around which touches a seki dame itself).
    pub seki_eye_rule: SekiEyeRule,
    /// Which necessary connections of territory counting (pass 4) are made.
    pub connections: Connections,
}

impl CountRules {
    pub fn of(rules: &Rules) -> CountRules {
        CountRules { scoring: rules.scoring, tax: rules.tax, seki_eye_rule: rules.seki_eye_rule, connections: rules.connections }
    }
}

/// The chains in seki and the dame between them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seki {
    /// Empty points neither colour can fill without self-atari.
    pub dame: Vec<Pt>,
    /// Per chain of the analysis: in seki.
    pub chains: Vec<bool>,
    /// Per chain: touches a seki dame itself, or is a chain of a ko-seki.
    pub at_dame: Vec<bool>,
}

/// The counted position: what each point is, and the group tax.
#[derive(Debug, Clone)]
pub struct Counted {
    /// Per point of the analysis's cells (border cells are `Dame`).
    pub kinds: Vec<Kind>,
    pub seki: Seki,
    /// Points counted as territory that touch a chain in seki: the eyes
    /// KGS's narrower tax leaves to their owner.
    pub seki_eyes_counted: u32,
    /// Under [`Connections::ExceptOneDame`]: the points kept as territory
    /// that [`Connections::Every`] would have connected (where a single
    /// dame forces a connection, and the connections those force in turn).
    pub one_dame_kept: u32,
    /// Points each colour (Black, White) gives up to the group tax.
    pub tax: [u32; 2],
}

/// Runs the passes in order.
pub fn count(a: &Analysis, rules: CountRules) -> Counted {
    // The seki and the connections fill stones on their own copies of the
    // position's chains and liberties, built once.
    let unfilled = Filled::new(a);
    let seki = seki(a, unfilled.clone(), rules.seki_eye_rule == SekiEyeRule::AnyChainInSeki);
    let mut kinds = regions(a, &seki);
    let seki_eyes_counted = if rules.tax == Tax::None { 0 } else { seki_eyes(a, &seki, rules.seki_eye_rule, &mut kinds) };
    let one_dame_kept = if rules.scoring == Scoring::Territory && rules.connections != Connections::Ignored {
        necessary_connections(a, unfilled, &seki, rules.connections, &mut kinds)
    } else {
        0
    };
    let tax = if rules.tax == Tax::All { group_tax(a, &kinds) } else { [0, 0] };
    Counted { kinds, seki, seki_eyes_counted, one_dame_kept, tax }
}

/// The largest eye through which chains share their fate in a seki.
const MAX_LINKING_EYE: usize = 2;

/// Pass 1, seki: the dame neither colour can fill without putting its own
/// chain in atari (Art. 8; RULES.md: dame that can simply be filled make
/// no seki), once the dame that can be filled quietly are (with
/// `fill_dame`: the confirmation of Art. 9 fills them before the count;
/// a ten-thousand-year ko left open shows as the seki the commentary to
/// Art. 7 calls it only then; KGS's results find seki as the board
/// stands), the chains beside them, and the chains of a ko-seki: a chain
/// in atari in its own one-point eye that its owner cannot connect (see
/// [`connects`]: a double-ko seki). A chain in atari that can connect is
/// an open ko: a connection to make (pass 4), not a seki. Chains that share a small eye share their fate, unless one
/// has a larger eye of its own. Pass-alive chains are never in seki.
fn seki(a: &Analysis, mut filled: Filled, fill_dame: bool) -> Seki {
    let n = a.chains().len();
    let mut found = Seki { dame: Vec::new(), chains: vec![false; n], at_dame: vec![false; n] };
    let mark = |c: ChainId, found: &mut Seki| {
        if !a.chain(c).pass_alive {
            found.chains[c as usize] = true;
            found.at_dame[c as usize] = true;
        }
    };
    if fill_dame {
        fill_quiet_dame(a, &mut filled);
    }
    for region in a.regions() {
        // Filled only around small regions (see fill_quiet_dame).
        let small = region.points.len() <= MAX_LINKING_EYE;
        for &p in region.points.iter().filter(|&&p| a.pass_alive_area(p).is_none()) {
            let seki_dame = if small {
                filled.cells[p as usize] == Cell::Empty
                    && touches_both(a, &filled.cells, p)
                    && filled.self_atari(a, p, Color::Black)
                    && filled.self_atari(a, p, Color::White)
            } else {
                touches_both(a, a.cells(), p) && a.self_atari(p, Color::Black) && a.self_atari(p, Color::White)
            };
            if seki_dame {
                found.dame.push(p);
                for c in chains_reached(a, &filled.cells, p) {
                    mark(c, &mut found);
                }
            }
        }
    }
    for (c, chain) in a.chains().iter().enumerate() {
        if let [eye] = chain.liberties[..] {
            let region = a.region(a.region_id(eye).expect("a liberty is empty"));
            let own_eye = region.points.len() == 1 && region.owner() == Some(chain.color);
            if own_eye && !connects(a, c as ChainId, eye) {
                mark(c as ChainId, &mut found);
                for &around in &region.chains {
                    mark(around, &mut found);
                }
            }
        }
    }
    found.dame.sort_unstable();
    spread_over_small_eyes(a, &mut found);
    found
}

/// Fills the dame the players can fill quietly (a stone that captures
/// nothing and leaves no chain, its own or one beside it, with fewer than
/// two liberties), in point order, Black first where both can, again until
/// none is left: a seki can show only then, as in a ten-thousand-year ko,
/// whose dame are fillable until the others are filled. Only regions of
/// at most two points are filled, the size of a seki's dame: in larger
/// ones the order of filling would decide what is found. Pass-alive areas
/// are left as they are.
fn fill_quiet_dame(a: &Analysis, filled: &mut Filled) {
    let dame: Vec<Pt> = a
        .regions()
        .iter()
        .filter(|r| r.points.len() <= MAX_LINKING_EYE)
        .flat_map(|r| r.points.iter().copied())
        .filter(|&p| a.pass_alive_area(p).is_none() && touches_both(a, &filled.cells, p))
        .collect();
    loop {
        let mut changed = false;
        for &p in &dame {
            if filled.cells[p as usize] != Cell::Empty || !touches_both(a, &filled.cells, p) {
                continue;
            }
            if let Some(color) = [Color::Black, Color::White].into_iter().find(|&c| filled.fills_quietly(a, p, c)) {
                filled.place(a, p, Cell::of(color));
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

fn touches_both(a: &Analysis, cells: &[Cell], p: Pt) -> bool {
    let around = |color| a.neighbors(p).iter().any(|&q| cells[q as usize] == Cell::of(color));
    around(Color::Black) && around(Color::White)
}

/// The chains of the analysis beside `p` once the dame are filled: those
/// next to it, and those the filled stones joined to them.
fn chains_reached(a: &Analysis, filled: &[Cell], p: Pt) -> Vec<ChainId> {
    let mut stones: Vec<Pt> = a.neighbors(p).into_iter().filter(|&q| filled[q as usize].color().is_some()).collect();
    let mut i = 0;
    while i < stones.len() {
        let s = stones[i];
        for q in a.neighbors(s) {
            // Through filled stones only: a chain of the analysis is one id already.
            let through_fill = a.cell(q) == Cell::Empty || a.cell(s) == Cell::Empty;
            if filled[q as usize] == filled[s as usize] && through_fill && !stones.contains(&q) {
                stones.push(q);
            }
        }
        i += 1;
    }
    let mut chains: Vec<ChainId> = stones.iter().filter_map(|&s| a.chain_id(s)).collect();
    chains.sort_unstable();
    chains.dedup();
    chains
}

/// Whether the chain `c`, in atari in its own one-point eye `eye`, can
/// connect there: filling the eye, and then each own one-point eye the
/// grown chain is left in atari in, gives it two liberties. In a
/// double-ko seki it cannot: connecting one ko leaves the group in atari
/// in its last eye.
fn connects(a: &Analysis, c: ChainId, eye: Pt) -> bool {
    let color = a.chain(c).color;
    let mut cells = a.cells().to_vec();
    let mut fill = eye;
    loop {
        cells[fill as usize] = Cell::of(color);
        let after = Analysis::chains_only(cells.clone(), a.stride());
        match after.chain_at(fill).liberties[..] {
            [_, _, ..] => return true,
            [next] => {
                // A one-point eye of its own: no empty point and no enemy
                // stone beside the liberty (the chain's own stone is).
                let own_eye = after.neighbors(next).iter().all(|&q| after.cell(q) == Cell::Border || after.cell(q) == Cell::of(color));
                if !own_eye {
                    return false;
                }
                fill = next;
            }
            [] => return false,
        }
    }
}

/// Stones in seki are groups, not single chains: chains that share a small
/// eye live or die together, so when one is in seki all are (seki_exotics'
/// seki_score: a ring of chains joined by one-point eyes, one of them at
/// the seki dame). A chain beside a larger region of its own has its own
/// life, and so has a pass-alive chain: the seki does not reach them (in
/// KGS games the territory of whole living groups was lost that way).
fn spread_over_small_eyes(a: &Analysis, found: &mut Seki) {
    let own_life: Vec<bool> = a
        .chains()
        .iter()
        .map(|chain| chain.pass_alive || chain.regions.iter().any(|&r| a.region(r).owner().is_some() && a.region(r).points.len() > MAX_LINKING_EYE))
        .collect();
    let small_eyes: Vec<_> = a.regions().iter().filter(|r| r.owner().is_some() && r.points.len() <= MAX_LINKING_EYE).collect();
    loop {
        let mut changed = false;
        for eye in &small_eyes {
            if eye.chains.iter().any(|&c| found.chains[c as usize]) {
                for &c in &eye.chains {
                    if !found.chains[c as usize] && !own_life[c as usize] {
                        found.chains[c as usize] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Pass 2, regions: stones are stones; an empty region with a seki dame
/// is seki dame; one touched by one colour only is its territory; the
/// rest is dame.
pub fn regions(a: &Analysis, seki: &Seki) -> Vec<Kind> {
    let mut kinds = vec![Kind::Dame; a.cells().len()];
    for (p, cell) in a.cells().iter().enumerate() {
        if let Some(color) = cell.color() {
            kinds[p] = Kind::Stone(color);
        }
    }
    for region in a.regions() {
        let kind =
            if region.points.iter().any(|p| seki.dame.binary_search(p).is_ok()) { Kind::SekiDame } else { region.owner().map_or(Kind::Dame, Kind::Territory) };
        for &p in &region.points {
            kinds[p as usize] = kind;
        }
    }
    kinds
}

/// Pass 3, seki eyes: territory touching a chain in seki is no one's
/// (Art. 8), or under KGS's rule only when every chain around touches a
/// seki dame itself. Returns the territory points still counted that touch
/// a chain in seki.
pub fn seki_eyes(a: &Analysis, seki: &Seki, rule: SekiEyeRule, kinds: &mut [Kind]) -> u32 {
    let mut counted = 0;
    for region in a.regions() {
        let Kind::Territory(_) = kinds[region.points[0] as usize] else { continue };
        let touches_seki = region.chains.iter().any(|&c| seki.chains[c as usize]);
        let all_at_dame = region.chains.iter().all(|&c| seki.at_dame[c as usize]);
        if !touches_seki {
            continue;
        }
        if rule == SekiEyeRule::EveryChainInSeki && !all_at_dame {
            counted += region.points.len() as u32;
            continue;
        }
        for &p in &region.points {
            kinds[p as usize] = Kind::SekiEye;
        }
    }
    counted
}

/// Pass 4, necessary connections (territory counting): points a player
/// must fill once the dame are filled (commentary to Art. 9) are not
/// territory. A chain whose only liberties are one point of its own
/// territory and dame the opponent can fill safely will be in atari there,
/// and must connect, unless filling one of those dame itself links it to
/// more territory. An open ko is the case with no dame: the chain in atari
/// in its own eye connects, one point less for its owner. Each connection
/// may leave the next chain short, so this repeats. Chains in seki make no
/// connection: the kos of a double-ko seki cannot be connected.
///
/// Under [`Connections::ExceptOneDame`] (KGS's results), a chain whose
/// only liberties are the territory point and a single dame either colour
/// can fill keeps that point; returns how many points it keeps that
/// [`Connections::Every`] would connect (the dame are filled once for both).
fn necessary_connections(a: &Analysis, unfilled: Filled, seki: &Seki, which: Connections, kinds: &mut [Kind]) -> u32 {
    let mut in_seki = vec![false; a.cells().len()];
    for (c, chain) in a.chains().iter().enumerate() {
        if seki.chains[c] {
            for &s in &chain.stones {
                in_seki[s as usize] = true;
            }
        }
    }
    let filled = fill_one_sided_dame(a, unfilled, kinds);
    let mut under_every = (which == Connections::ExceptOneDame).then(|| kinds.to_vec());
    let kept_one = connect(a, &in_seki, filled.clone(), which, kinds);
    match &mut under_every {
        Some(every) if kept_one => {
            connect(a, &in_seki, filled, Connections::Every, every);
            let forced = |kinds: &[Kind]| kinds.iter().filter(|&&k| k == Kind::ForcedConnection).count() as u32;
            forced(every).saturating_sub(forced(kinds))
        }
        _ => 0,
    }
}

/// Makes the connections on the filled cells, again until none is
/// needed; returns whether [`Connections::ExceptOneDame`] kept a point.
fn connect(a: &Analysis, in_seki: &[bool], mut filled: Filled, which: Connections, kinds: &mut [Kind]) -> bool {
    let mut one_dame_kept = false;
    loop {
        let mut connections = connections_needed(a, &mut filled, in_seki, kinds);
        if which == Connections::ExceptOneDame {
            let before = connections.len();
            connections.retain(|c| c.dame != 1);
            one_dame_kept |= connections.len() < before;
        }
        if connections.is_empty() {
            return one_dame_kept;
        }
        for Connection { point, .. } in connections {
            let Kind::Territory(color) = kinds[point as usize] else { continue };
            filled.place(a, point, Cell::of(color));
            kinds[point as usize] = Kind::ForcedConnection;
        }
    }
}

/// A point where a chain must connect, and how many dame force it (dame
/// either colour can fill: those only one can are filled first).
struct Connection {
    point: Pt,
    dame: usize,
}

/// The cells once each dame only one colour can fill without self-atari
/// is filled, as the players would before counting: always the first such
/// point in board order, then the search starts again.
fn fill_one_sided_dame(a: &Analysis, mut filled: Filled, kinds: &[Kind]) -> Filled {
    let mut dame = Dame::new(kinds, &filled.cells);
    while let Some(d) = dame.first_unsettled() {
        let mut safe = [Color::Black, Color::White]
            .into_iter()
            .filter(|&c| a.neighbors(d).iter().any(|&n| filled.cells[n as usize] == Cell::of(c)) && !filled.self_atari(a, d, c));
        if let (Some(color), None) = (safe.next(), safe.next()) {
            dame.fill(d);
            filled.fill(a, d, Cell::of(color), &mut dame);
        } else {
            dame.settle(d);
        }
    }
    filled
}

/// The empty dame, as bit sets: each is asked whether one colour alone can
/// fill it until it is found not fillable (settled), and asked again only
/// when a fill changes what its answer depends on (on an open board in
/// play, most of the board is dame and each fill would otherwise ask every
/// point again). Every dame before the first unsettled one is settled, so
/// asking the unsettled ones in board order finds the first fillable one.
struct Dame {
    empty: Vec<u64>,
    unsettled: Vec<u64>,
}

impl Dame {
    fn new(kinds: &[Kind], cells: &[Cell]) -> Dame {
        let mut empty = vec![0; cells.len().div_ceil(64)];
        for p in 0..cells.len() {
            if cells[p] == Cell::Empty && kinds[p] == Kind::Dame {
                insert(&mut empty, p as Pt);
            }
        }
        Dame { unsettled: empty.clone(), empty }
    }

    fn first_unsettled(&self) -> Option<Pt> {
        self.empty.iter().zip(&self.unsettled).enumerate().find_map(|(w, (&empty, &unsettled))| {
            let asked = empty & unsettled;
            (asked != 0).then(|| (w * 64) as Pt + asked.trailing_zeros() as Pt)
        })
    }

    fn fill(&mut self, p: Pt) {
        remove(&mut self.empty, p);
    }

    fn settle(&mut self, p: Pt) {
        remove(&mut self.unsettled, p);
    }

    fn unsettle(&mut self, p: Pt) {
        insert(&mut self.unsettled, p);
    }
}

/// A chain with this many liberties or more gives every point beside it
/// the same answer in [`fill_one_sided_dame`] (self-atari counts two
/// liberties, and a point takes one of them away).
const MANY_LIBERTIES: usize = 3;

/// The cells as the dame fills change them, with each chain's liberties
/// kept as a set of bits. A fill only adds a stone (it takes nothing), so
/// chains only merge and lose liberties, and a question about a chain's
/// liberties needs no walk over its stones (on an open board in play the
/// fills grow chains across whole regions).
#[derive(Clone)]
struct Filled {
    cells: Vec<Cell>,
    /// Per stone: another stone of its chain, up to the chain's root,
    /// which is its own parent (a union-find forest).
    parent: Vec<Pt>,
    /// Per root: where its chain's liberty set starts in `sets`.
    set_at: Vec<usize>,
    /// The liberty sets, `words` words each (a bit per cell).
    sets: Vec<u64>,
    words: usize,
}

impl Filled {
    /// The analysis's cells, with its chains and their liberties.
    fn new(a: &Analysis) -> Filled {
        let cells = a.cells().to_vec();
        let n = cells.len();
        let words = n.div_ceil(64);
        // A set for each chain, and room for one for each point a fill
        // may start a chain on.
        let empty = cells.iter().filter(|&&c| c == Cell::Empty).count();
        let sets = Vec::with_capacity(words * (a.chains().len() + empty));
        let mut filled = Filled { parent: (0..n as Pt).collect(), set_at: vec![0; n], sets, words, cells };
        for chain in a.chains() {
            let root = chain.stones[0];
            for &s in &chain.stones {
                filled.parent[s as usize] = root;
            }
            let at = filled.new_set(root);
            for &l in &chain.liberties {
                insert(&mut filled.sets[at..at + words], l);
            }
        }
        filled
    }

    /// An empty liberty set for the chain whose root is `root`.
    fn new_set(&mut self, root: Pt) -> usize {
        let at = self.sets.len();
        self.sets.resize(at + self.words, 0);
        self.set_at[root as usize] = at;
        at
    }

    /// The root of the chain of the stone at `p`.
    fn root(&mut self, mut p: Pt) -> Pt {
        while self.parent[p as usize] != p {
            let grandparent = self.parent[self.parent[p as usize] as usize];
            self.parent[p as usize] = grandparent;
            p = grandparent;
        }
        p
    }

    /// Where the liberty set of the chain of the stone at `p` starts.
    fn set_start(&mut self, p: Pt) -> usize {
        let root = self.root(p);
        self.set_at[root as usize]
    }

    /// The liberties of the chain of the stone at `p`.
    fn set(&mut self, p: Pt) -> &[u64] {
        let at = self.set_start(p);
        &self.sets[at..at + self.words]
    }

    /// The liberties of the chain of the stone at `p`, counted up to `most`.
    fn liberties_up_to(&mut self, p: Pt, most: usize) -> usize {
        count_up_to(self.set(p), most)
    }

    /// Puts `stone` at the empty point `d`, capturing nothing: it joins the
    /// first chain of its colour beside it, and the others join that one.
    fn place(&mut self, a: &Analysis, d: Pt, stone: Cell) {
        self.cells[d as usize] = stone;
        let around = a.neighbors(d);
        let mut joined: Option<Pt> = None;
        for n in around {
            let cell = self.cells[n as usize];
            if cell.color().is_none() {
                continue;
            }
            let root = self.root(n);
            let at = self.set_at[root as usize];
            remove(&mut self.sets[at..at + self.words], d);
            if cell != stone {
                continue;
            }
            match joined {
                None => joined = Some(root),
                Some(first) if first != root => {
                    self.parent[root as usize] = first;
                    let into = self.set_at[first as usize];
                    for w in 0..self.words {
                        self.sets[into + w] |= self.sets[at + w];
                    }
                }
                Some(_) => {}
            }
        }
        let root = joined.unwrap_or(d);
        let at = if root == d { self.new_set(d) } else { self.set_at[root as usize] };
        self.parent[d as usize] = root;
        for n in around.into_iter().filter(|&n| self.cells[n as usize] == Cell::Empty) {
            insert(&mut self.sets[at..at + self.words], n);
        }
    }

    /// The liberties a stone of `color` at the empty point `d` would have,
    /// captures aside, those `keep` accepts, counted up to `most` (at most
    /// two): the empty points beside it first, then its chains' liberties.
    fn liberties_if_played(&mut self, a: &Analysis, d: Pt, color: Color, keep: impl Fn(Pt) -> bool, most: usize) -> usize {
        debug_assert!(most <= 2);
        let mut found = [d; 2];
        let mut count = 0;
        let mut enough = |p: Pt| {
            if p != d && keep(p) && !found[..count].contains(&p) {
                found[count] = p;
                count += 1;
            }
            count == most
        };
        let around = a.neighbors(d);
        if around.into_iter().any(|n| self.cells[n as usize] == Cell::Empty && enough(n)) {
            return most;
        }
        for n in around {
            if self.cells[n as usize] == Cell::of(color) && members(self.set(n)).any(&mut enough) {
                return most;
            }
        }
        count
    }

    /// Whether a stone of `color` at the empty point `d` would leave its
    /// chain with at most one liberty and capture nothing: what
    /// [`Analysis::self_atari`] answers of an analysed position, asked of
    /// the cells as filled.
    fn self_atari(&mut self, a: &Analysis, d: Pt, color: Color) -> bool {
        // Two empty points beside it are two liberties.
        if a.neighbors(d).iter().filter(|&&n| self.cells[n as usize] == Cell::Empty).count() >= 2 {
            return false;
        }
        let enemy = Cell::of(color.opponent());
        let captures = a.neighbors(d).into_iter().any(|n| self.cells[n as usize] == enemy && self.liberties_up_to(n, 2) < 2);
        !captures && self.liberties_if_played(a, d, color, |_| true, 2) < 2
    }

    /// Whether a stone of `color` at the empty point `d` captures nothing
    /// and leaves no chain, its own or one beside it, with fewer than two
    /// liberties.
    fn fills_quietly(&mut self, a: &Analysis, d: Pt, color: Color) -> bool {
        let enemy = Cell::of(color.opponent());
        // `d` is a liberty of each enemy chain beside it, which the stone takes.
        self.liberties_if_played(a, d, color, |_| true, 2) == 2
            && a.neighbors(d).into_iter().all(|n| self.cells[n as usize] != enemy || self.liberties_up_to(n, 3) == 3)
    }

    /// Puts `stone` at `d` and unsettles the points whose answer it may
    /// change. Whether an empty point may be filled depends on its
    /// neighbours and on the liberties of the chains beside it, up to two
    /// once the point itself is taken away; the fill changes the points
    /// beside `d`, the chain it joins and the enemy chains beside it, and
    /// a changed chain changes the answer beside it only if it had or has
    /// fewer than [`MANY_LIBERTIES`] liberties.
    fn fill(&mut self, a: &Analysis, d: Pt, stone: Cell, dame: &mut Dame) {
        let around = a.neighbors(d);
        for n in around {
            dame.unsettle(n);
        }
        // The chains `d` joins, as they were.
        for n in around {
            if self.cells[n as usize] == stone {
                self.unsettle_beside_if_short(n, dame);
            }
        }
        self.place(a, d, stone);
        for n in around {
            if self.cells[n as usize].color().is_some() && self.cells[n as usize] != stone {
                self.unsettle_beside_if_short(n, dame);
            }
        }
        self.unsettle_beside_if_short(d, dame);
    }

    /// Unsettles the liberties of the chain at `p` if it has fewer than
    /// [`MANY_LIBERTIES`].
    fn unsettle_beside_if_short(&mut self, p: Pt, dame: &mut Dame) {
        if self.liberties_up_to(p, MANY_LIBERTIES) == MANY_LIBERTIES {
            return;
        }
        for l in members(self.set(p)) {
            dame.unsettle(l);
        }
    }
}

/// The points of `set`, counted up to `most` (a chain asked about has few
/// liberties or is quickly found to have enough).
fn count_up_to(set: &[u64], most: usize) -> usize {
    members(set).take(most).count()
}

/// The points of `set`, in order.
fn members(set: &[u64]) -> impl Iterator<Item = Pt> + '_ {
    bits::members(set).map(|p| p as Pt)
}

fn insert(set: &mut [u64], p: Pt) {
    set[p as usize / 64] |= 1 << (p % 64);
}

fn remove(set: &mut [u64], p: Pt) {
    set[p as usize / 64] &= !(1 << (p % 64));
}

/// Own-territory points where a chain must connect once the opponent
/// fills the dame around it (see [`necessary_connections`]), on the
/// filled cells.
fn connections_needed(a: &Analysis, filled: &mut Filled, in_seki: &[bool], kinds: &[Kind]) -> Vec<Connection> {
    let mut roots_in_seki = vec![false; in_seki.len()];
    for p in (0..in_seki.len() as Pt).filter(|&p| in_seki[p as usize]) {
        let root = filled.root(p);
        roots_in_seki[root as usize] = true;
    }
    let mut out: Vec<Connection> = Vec::new();
    for root in 0..in_seki.len() as Pt {
        let Some(color) = filled.cells[root as usize].color() else { continue };
        if filled.parent[root as usize] != root || roots_in_seki[root as usize] {
            continue;
        }
        let Some(own) = one_own_point_and_dame(members(filled.set(root)), color, kinds) else { continue };
        let dame: Vec<Pt> = members(filled.set(root)).filter(|&n| n != own).collect();
        let opponent_fills_all = dame.iter().all(|&d| !filled.self_atari(a, d, color.opponent()));
        let is_territory = |n: Pt| matches!(kinds[n as usize], Kind::Territory(_));
        let filling_links_out = dame.iter().any(|&d| filled.liberties_if_played(a, d, color, is_territory, 2) == 2);
        // Connecting must give the chain a liberty the opponent cannot
        // take; filling an eye only its own stones surround does not, so
        // its owner fills a dame instead and keeps the eye.
        let connection_saves = filled.liberties_if_played(a, own, color, |l| !dame.contains(&l), 1) == 1;
        if opponent_fills_all && !filling_links_out && connection_saves {
            match out.iter_mut().find(|c| c.point == own) {
                Some(c) => c.dame = c.dame.max(dame.len()),
                None => out.push(Connection { point: own, dame: dame.len() }),
            }
        }
    }
    out
}

/// The one liberty of a chain of `color` that is its own territory, when
/// each of its other liberties is dame.
fn one_own_point_and_dame(liberties: impl Iterator<Item = Pt>, color: Color, kinds: &[Kind]) -> Option<Pt> {
    let mut own = None;
    for n in liberties {
        match kinds[n as usize] {
            Kind::Dame => {}
            Kind::Territory(c) if c == color && own.is_none() => own = Some(n),
            _ => return None,
        }
    }
    own
}

/// Pass 5, the group tax: each living group (chains joined through the
/// territory they surround) gives up two of its points, or all it has
/// when it has fewer. Returns the points for (Black, White).
pub fn group_tax(a: &Analysis, kinds: &[Kind]) -> [u32; 2] {
    let mut group_of = vec![u32::MAX; a.chains().len()];
    let mut tax = [0, 0];
    for start in 0..a.chains().len() {
        if group_of[start] != u32::MAX {
            continue;
        }
        let color = a.chain(start as ChainId).color;
        group_of[start] = start as u32;
        let (mut stack, mut territory) = (vec![start as ChainId], 0u32);
        let mut seen_regions = Vec::new();
        while let Some(c) = stack.pop() {
            for &r in &a.chain(c).regions {
                let region = a.region(r);
                if kinds[region.points[0] as usize] != Kind::Territory(color) || seen_regions.contains(&r) {
                    continue;
                }
                seen_regions.push(r);
                territory += region.points.iter().filter(|&&p| kinds[p as usize] == Kind::Territory(color)).count() as u32;
                for &next in &region.chains {
                    if group_of[next as usize] == u32::MAX {
                        group_of[next as usize] = start as u32;
                        stack.push(next);
                    }
                }
            }
        }
        tax[color as usize] += territory.min(2);
    }
    tax
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// The grid drawn as the diagrams are: `X`/`O` stones, `b`/`w`
    /// territory, `.` dame, `s` seki dame, `e` seki eye, `c` forced
    /// connection.
    fn drawn(board: &Board, kinds: &[Kind]) -> Vec<String> {
        (0..board.height())
            .map(|y| {
                (0..board.width())
                    .map(|x| match kinds[board.point(x, y).unwrap() as usize] {
                        Kind::Stone(Color::Black) => 'X',
                        Kind::Stone(Color::White) => 'O',
                        Kind::Territory(Color::Black) => 'b',
                        Kind::Territory(Color::White) => 'w',
                        Kind::Dame => '.',
                        Kind::SekiDame => 's',
                        Kind::SekiEye => 'e',
                        Kind::ForcedConnection => 'c',
                    })
                    .collect()
            })
            .collect()
    }

    const JAPANESE: CountRules =
        CountRules { scoring: Scoring::Territory, tax: Tax::Seki, seki_eye_rule: SekiEyeRule::AnyChainInSeki, connections: Connections::Every };

    fn counted(rows: &[&str], rules: CountRules) -> (Vec<String>, Counted) {
        let board = Board::from_rows(rows).expect("a diagram");
        let a = Analysis::new(&board);
        let c = count(&a, rules);
        (drawn(&board, &c.kinds), c)
    }

    #[track_caller]
    fn assert_counted(rows: &[&str], rules: CountRules, want: &[&str]) -> Counted {
        let (got, c) = counted(rows, rules);
        assert_eq!(got, want, "\n{}\nwanted\n{}", got.join("\n"), want.join("\n"));
        c
    }

    /// Random numbers below `n` from a xorshift state, for random boards.
    fn below(seed: &mut u64, n: usize) -> usize {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % n as u64) as usize
    }

    /// A random `size` x `size` diagram drawing each point from `cells`.
    fn random_rows(seed: &mut u64, size: usize, cells: &[char]) -> Vec<String> {
        (0..size).map(|_| (0..size).map(|_| cells[below(seed, cells.len())]).collect()).collect()
    }

    #[test]
    fn self_atari_on_bare_cells_is_the_analysis_answer() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..300 {
            let rows = random_rows(&mut seed, 7, &['.', '.', 'X', 'O']);
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let board = Board::from_rows(&rows).expect("a diagram");
            let a = Analysis::new(&board);
            let mut filled = Filled::new(&a);
            for p in board.points().filter(|&p| a.cell(p) == Cell::Empty) {
                for color in [Color::Black, Color::White] {
                    assert_eq!(filled.self_atari(&a, p, color), a.self_atari(p, color), "{rows:?} {p} {color:?}");
                }
            }
            assert_eq!(filled.cells, a.cells(), "the cells are left as they were");
        }
    }

    #[test]
    fn the_liberties_kept_through_fills_are_those_of_the_filled_cells() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let rows = random_rows(&mut seed, 9, &['.', '.', '.', 'X', 'O']);
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let board = Board::from_rows(&rows).expect("a diagram");
            let a = Analysis::new(&board);
            let mut filled = Filled::new(&a);
            for _ in 0..30 {
                let empty: Vec<Pt> = board.points().filter(|&p| filled.cells[p as usize] == Cell::Empty).collect();
                if empty.is_empty() {
                    break;
                }
                let d = empty[below(&mut seed, empty.len())];
                filled.place(&a, d, [Cell::Black, Cell::White][below(&mut seed, 2)]);
                let fresh = Analysis::chains_only(filled.cells.clone(), a.stride());
                for p in board.points() {
                    if fresh.cell(p).color().is_some() {
                        assert_eq!(filled.liberties_up_to(p, usize::MAX), fresh.chain_at(p).liberties.len(), "{rows:?} {p}");
                    } else {
                        for color in [Color::Black, Color::White] {
                            assert_eq!(filled.self_atari(&a, p, color), fresh.self_atari(p, color), "{rows:?} {p} {color:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn an_open_ko_is_a_connection_not_a_seki() {
        // White's J9 is in atari in its own eye H9: White connects there,
        // one point less, and the other eyes stay territory.
        assert_counted(
            &[
                ".O.O.OO.O", //
                "OOOOOOOOX",
                "XXXXXXXXX",
                ".........",
            ],
            JAPANESE,
            &[
                "wOwOwOOcO", //
                "OOOOOOOOX",
                "XXXXXXXXX",
                "bbbbbbbbb",
            ],
        );
    }

    #[test]
    fn a_ten_thousand_year_ko_is_a_seki_once_the_dame_are_filled() {
        // White's B2-B1 sit in Black's corner eye space; C2 can be filled
        // quietly, and then neither C1 nor A1 can: seki, and Black's eye
        // A3 is no one's. As the board stands (KGS's rule) C2 is plain
        // dame and A3 Black's.
        let position = [
            "OOOOO....", //
            "XXOOO....",
            ".XXXO....",
            "XO.XO....",
            ".O.XO....",
        ];
        assert_counted(&position, JAPANESE, &["OOOOOwwww", "XXOOOwwww", "eXXXOwwww", "XOsXOwwww", "sOsXOwwww"]);
        let kgs = CountRules { seki_eye_rule: SekiEyeRule::EveryChainInSeki, ..JAPANESE };
        assert_counted(&position, kgs, &["OOOOOwwww", "XXOOOwwww", "bXXXOwwww", "XO.XOwwww", ".O.XOwwww"]);
    }

    #[test]
    fn a_double_ko_seki_is_a_seki() {
        // seki_exotics/twoko_seki1: White's C1 and Black's F1 are each in
        // atari in an eye their owner cannot fill without atari: neither
        // ko can be connected, and every eye of both groups is no one's.
        let c = assert_counted(
            &[
                ".........", //
                "XXXXXXX..",
                "OOOOOOXX.",
                "OXXXOOOX.",
                "OX.XO.OX.",
                "OOXXXOOX.",
                "O.OX.XOX.",
            ],
            JAPANESE,
            &[
                "bbbbbbbbb", //
                "XXXXXXXbb",
                "OOOOOOXXb",
                "OXXXOOOXb",
                "OXeXOeOXb",
                "OOXXXOOXb",
                "OeOXeXOXb",
            ],
        );
        assert!(c.seki.dame.is_empty());
    }

    #[test]
    fn seki_dame_count_for_no_one_and_a_two_eyed_group_beside_keeps_its_eyes() {
        // Black's A2-F2 and White's B1-D1 share A1 and E1, which neither
        // can fill; White's outer group lives with two eyes of its own.
        let c = assert_counted(
            &[
                "OOOOOOO.O", //
                "XXXXXXOOO",
                ".OOO.XO.O",
            ],
            JAPANESE,
            &[
                "OOOOOOOwO", //
                "XXXXXXOOO",
                "sOOOsXOwO",
            ],
        );
        assert_eq!(c.seki.chains.iter().filter(|&&s| s).count(), 2, "the outer white group is pass-alive, not in seki");
    }

    /// The seki of fixtures/score/kgs-seki-eyes.sgf: Black's B1 and White's
    /// chain share C1; E1 is White's eye, A1 an eye of B1 and of Black's
    /// outer chain, which lives by the J column.
    const SEKI_WITH_EYES: &[&str] = &[
        "XXXXXXXX.", //
        "XOOOOOOX.",
        ".X.O.OOX.",
    ];

    #[test]
    fn the_eyes_of_a_seki_under_each_tax() {
        let rules = |tax, seki_eye_rule| CountRules { scoring: Scoring::Territory, tax, seki_eye_rule, connections: Connections::Every };
        let art8 = assert_counted(SEKI_WITH_EYES, JAPANESE, &["XXXXXXXXb", "XOOOOOOXb", "eXsOeOOXb"]);
        assert_eq!(art8.seki.dame.len(), 1);
        // KGS: A1 counts, since the outer chain around it is at no seki dame.
        let kgs = assert_counted(SEKI_WITH_EYES, rules(Tax::Seki, SekiEyeRule::EveryChainInSeki), &["XXXXXXXXb", "XOOOOOOXb", "bXsOeOOXb"]);
        assert_eq!(kgs.seki_eyes_counted, 1);
        assert_counted(SEKI_WITH_EYES, rules(Tax::None, SekiEyeRule::AnyChainInSeki), &["XXXXXXXXb", "XOOOOOOXb", "bXsOwOOXb"]);
    }

    #[test]
    fn necessary_connection_after_a_dame() {
        // White fills F1 safely (Black there would be in atari); Black's E1
        // is then left with D1 alone, where it must connect.
        assert_counted(
            &[
                "...XO....", //
                "...XOO...",
                "....X.O..",
            ],
            JAPANESE,
            &[
                "bbbXOwwww", //
                "bbbXOOwww",
                "bbbcX.Oww",
            ],
        );
    }

    #[test]
    fn kgs_keeps_a_point_a_single_dame_forces() {
        // B3 is a dame either colour can fill. Once White fills it, A3 is
        // in atari and Black must connect at A4 (Japanese rules); KGS's
        // count keeps A4 as Black's territory.
        let position = [".XXXXX", "X.XXXX", "OO..OX", "OOOOOO"];
        let every = assert_counted(&position, JAPANESE, &["cXXXXX", "X.XXXX", "OO..OX", "OOOOOO"]);
        assert_eq!(every.one_dame_kept, 0);
        let kgs = assert_counted(&position, CountRules { connections: Connections::ExceptOneDame, ..JAPANESE }, &["bXXXXX", "X.XXXX", "OO..OX", "OOOOOO"]);
        assert_eq!(kgs.one_dame_kept, 1);
    }

    #[test]
    fn kgs_connects_after_a_dame_only_one_colour_can_fill_and_an_open_ko() {
        // F1 is a dame only White can fill: once it is filled, E1 is in
        // atari as in an open ko, and connects under KGS's rule too.
        let kgs = CountRules { connections: Connections::ExceptOneDame, ..JAPANESE };
        let one_sided = assert_counted(&["...XO....", "...XOO...", "....X.O.."], kgs, &["bbbXOwwww", "bbbXOOwww", "bbbcX.Oww"]);
        assert_eq!(one_sided.one_dame_kept, 0);
        let open_ko = assert_counted(&[".O.O.OO.O", "OOOOOOOOX", "XXXXXXXXX", "........."], kgs, &["wOwOwOOcO", "OOOOOOOOX", "XXXXXXXXX", "bbbbbbbbb"]);
        assert_eq!(open_ko.one_dame_kept, 0);
    }

    #[test]
    fn no_connection_under_area_counting() {
        let area = CountRules { scoring: Scoring::Area, tax: Tax::None, seki_eye_rule: SekiEyeRule::AnyChainInSeki, connections: Connections::Every };
        let (got, _) = counted(&[".O.O.OO.O", "OOOOOOOOX", "XXXXXXXXX", "........."], area);
        assert_eq!(got[0], "wOwOwOOwO");
    }

    #[test]
    fn group_tax_takes_two_points_a_group() {
        let c = assert_counted(
            &[
                ".O.O.OO.O", //
                "OOOOOOOOX",
                "XXXXXXXXX",
                ".........",
            ],
            CountRules { scoring: Scoring::Area, tax: Tax::All, seki_eye_rule: SekiEyeRule::AnyChainInSeki, connections: Connections::Every },
            &[
                "wOwOwOOwO", //
                "OOOOOOOOX",
                "XXXXXXXXX",
                "bbbbbbbbb",
            ],
        );
        assert_eq!(c.tax, [2, 2]);
    }
}

//! What each point of the final board counts as, point by point: the
//! typed map the count gives and `report` draws.

use crate::board::Color;

/// What a point of the final board is for the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapPoint {
    /// A living stone.
    Stone(Color),
    /// A stone found dead (it counts as the opponent's prisoner and its
    /// point as the opponent's territory, or dame).
    Dead(Color),
    /// An empty point counted for this colour.
    Territory(Color),
    /// A dame of a seki: neither colour can fill it.
    SekiDame,
    /// Counts for no one, but is no dame to fill: an eye of stones in seki
    /// (Japanese Art. 8), or a point a necessary connection fills.
    NoOnes,
    /// A neutral point.
    Dame,
}

/// The final board as the count saw it, `width` x `height` points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreMap {
    width: u8,
    height: u8,
    /// Row by row from the top (SGF's `y = 0`).
    points: Vec<MapPoint>,
}

impl ScoreMap {
    /// The map where `point(x, y)` gives each point.
    pub fn new(width: u8, height: u8, point: impl Fn(u8, u8) -> MapPoint) -> ScoreMap {
        let points = (0..height).flat_map(|y| (0..width).map(move |x| (x, y))).map(|(x, y)| point(x, y)).collect();
        ScoreMap { width, height, points }
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// The point at `(x, y)`, on the board.
    pub fn get(&self, x: u8, y: u8) -> MapPoint {
        assert!(x < self.width && y < self.height, "({x}, {y}) is off the {}x{} map", self.width, self.height);
        self.points[usize::from(y) * usize::from(self.width) + usize::from(x)]
    }
}

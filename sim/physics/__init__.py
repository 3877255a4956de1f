"""Physics core shared by the games: a fixed-step pymunk world with settle detection, a velocity cap,
depth-lane collision filters, canonical snapshots and a capped-force hand (``sim.physics.world``)."""
from .world import (
    CAT_ALL_LANES, CAT_FRAME, CAT_TABLE, BodyState, Hand, HandSettings, Settings, SettleResult, Snapshot,
    World, all_lanes_filter, frame_filter, lane_category, lane_filter, lane_query_filter, make_velocity_cap,
    table_filter,
)

__all__ = [
    "CAT_ALL_LANES", "CAT_FRAME", "CAT_TABLE", "BodyState", "Hand", "HandSettings", "Settings", "SettleResult",
    "Snapshot", "World", "all_lanes_filter", "frame_filter", "lane_category", "lane_filter",
    "lane_query_filter", "make_velocity_cap", "table_filter",
]

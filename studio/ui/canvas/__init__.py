"""The tree canvas: one card per node on a QGraphicsScene, edges and an overview layer."""

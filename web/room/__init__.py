"""A room of tables on MQTT: each table publishes, one hub page shows them all.

Topics, for a table named ``t1`` (see :mod:`web.room.topics`)::

    passetable/t1/state     retained  the compact snapshot (web.room.compact), on every change
    passetable/t1/events    QoS 1     each observation with its sentence(s)
    passetable/t1/alerts    retained  the open alerts
    passetable/t1/health    retained  {"status": "online", ...}; the last will (QoS 1) sets "offline"

Retained topics are sent at QoS 0 and sent again after every reconnection (see
:mod:`web.room.publisher`); events at QoS 1.
    passetable/t1/command   in        signed commands from the hub (opt-in, web.room.signing)

:class:`web.room.publisher.TablePublisher` runs beside a table's session;
``passetable hub`` (:mod:`web.room.cli`) serves the café's page from the retained messages.
"""
